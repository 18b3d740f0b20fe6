export { Textarea } from './Input';
