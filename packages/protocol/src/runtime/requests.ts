// keel-web's request bodies of spec section 2: a run, and web projects and tasks. All are the runtime's own
// schemas (`@keel/runtime/wire`), the ones the SDK validates with.

/** An image as a request carries it (the answers' `imagePayload` reads it back). */
/** The run request, shared by the SDK, `POST /run`, `POST /run/stream` and `POST /runtime/runs`. */
/** `POST /api/projects`, `PUT /api/projects/{id}`, `POST /api/projects/{id}/tasks`, `PUT /api/tasks/{id}`. */
export {
  imagePayloadSchema as imagePayloadInput,
  type NewProjectInput as NewProject,
  type NewTaskInput as NewTask,
  newProjectSchema as newProject,
  newTaskSchema as newTask,
  type ProjectUpdateInput as ProjectUpdate,
  projectUpdateSchema as projectUpdate,
  type RunRequest,
  runRequestSchema as runRequest,
  type TaskUpdateInput as TaskUpdate,
  taskUpdateSchema as taskUpdate,
} from '@keel/runtime/wire';
