import assert from 'node:assert/strict';
import { test } from 'node:test';
import { addTodo, completeTodo, filterTodos } from '../src/todos.js';

const list = completeTodo(addTodo(addTodo([], 'a'), 'b'), 1);

test('completeTodo marks only the chosen todo done', () => {
  assert.deepEqual(
    list.map((todo) => todo.done),
    [true, false],
  );
});

test('filterTodos returns open, done or all todos', () => {
  assert.deepEqual(
    filterTodos(list, 'open').map((todo) => todo.title),
    ['b'],
  );
  assert.deepEqual(
    filterTodos(list, 'done').map((todo) => todo.title),
    ['a'],
  );
  assert.equal(filterTodos(list, 'all').length, 2);
});
