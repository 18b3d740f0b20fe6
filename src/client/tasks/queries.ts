/** A task and its todos, live from the device through the one door. */
export {
  useChildProgress as useTaskProgress,
  useChildrenPage as useTaskTodosPage,
  useInside as useTaskInside,
  useItem as useTask,
} from '../items/queries';
