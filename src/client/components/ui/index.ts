export { Avatar, initials } from './Avatar';
export { Badge, type BadgeTone } from './Badge';
export { Button, type ButtonProps, buttonClasses } from './Button';
export { Card, CardContent, CardDescription, CardHeader, CardTitle } from './Card';
export { cn, focusRing } from './cn';
export { Dialog, DialogClose, DialogContent, DialogFooter, DialogTrigger } from './Dialog';
export {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuGroup,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from './DropdownMenu';
export { EmptyState } from './EmptyState';
export { Field, type FieldControlProps, Label } from './Field';
export { IconButton } from './IconButton';
export { Input, inputClasses, Textarea } from './Input';
export { Progress } from './Progress';
export { RadioGroup, RadioOption } from './RadioGroup';
export { Sheet, SheetClose, SheetContent, SheetTrigger } from './Sheet';
export { Skeleton, SkeletonRows } from './Skeleton';
export { Spinner } from './Spinner';
export { Tabs, TabsContent, TabsList, TabsTrigger } from './Tabs';
