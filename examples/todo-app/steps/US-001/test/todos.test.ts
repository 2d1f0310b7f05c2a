import assert from 'node:assert/strict';
import { test } from 'node:test';
import { addTodo } from '../src/todos.js';

test('addTodo appends an open todo with the next id', () => {
  const list = addTodo(addTodo([], 'write tests'), ' ship it ');
  assert.deepEqual(list, [
    { id: 1, title: 'write tests', done: false },
    { id: 2, title: 'ship it', done: false },
  ]);
});

test('addTodo refuses an empty title', () => {
  assert.throws(() => addTodo([], '   '), /needs a title/);
});
