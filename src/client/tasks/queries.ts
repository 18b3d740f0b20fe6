/** A task and its todos, live from the device through the one door. */
export {
  useChildrenOldestFirst as useTaskTodos,
  useItem as useTask,
} from '../items/queries';
