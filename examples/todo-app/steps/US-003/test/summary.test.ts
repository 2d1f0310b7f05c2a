import assert from 'node:assert/strict';
import { test } from 'node:test';
import { addTodo, completeTodo, summarise } from '../src/todos.js';

test('summarise counts done todos', () => {
  const list = completeTodo(addTodo(addTodo([], 'a'), 'b'), 2);
  assert.equal(summarise(list), '1 of 2 done');
});

test('summarise reads an empty list as nothing to do', () => {
  assert.equal(summarise([]), 'nothing to do');
});
