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

export type TodoFilter = 'all' | 'open' | 'done';

/** Marks one todo done; every other todo is returned unchanged. */
export function completeTodo(list: readonly Todo[], id: number): Todo[] {
  if (!list.some((todo) => todo.id === id)) throw new Error(`no todo with id ${id}`);
  return list.map((todo) => (todo.id === id ? { ...todo, done: true } : todo));
}

export function filterTodos(list: readonly Todo[], filter: TodoFilter): Todo[] {
  if (filter === 'all') return [...list];
  return list.filter((todo) => (filter === 'done' ? todo.done : !todo.done));
}
