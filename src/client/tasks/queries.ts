/** A task and its todos, live from the device through the one door. */
export {
  useChildProgress as useTaskProgress,
  useChildren as useTaskTodos,
  useChildrenPage as useTaskTodosPage,
  useItem as useTask,
} from '../items/queries';
