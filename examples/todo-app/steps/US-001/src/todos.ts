export interface Todo {
  readonly id: number;
  readonly title: string;
  readonly done: boolean;
}

/** Returns a new list with an open todo appended; the list passed in is not changed. */
export function addTodo(list: readonly Todo[], title: string): Todo[] {
  const trimmed = title.trim();
  if (trimmed === '') throw new Error('a todo needs a title');
  const id = list.reduce((max, todo) => Math.max(max, todo.id), 0) + 1;
  return [...list, { id, title: trimmed, done: false }];
}
