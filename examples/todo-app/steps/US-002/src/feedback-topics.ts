/**
 * The requests the todo app keeps getting: how to recognise each one in feedback, and
 * how its user story reads. Cues are lower-case phrases customers actually use.
 */
export interface Topic {
  readonly name: string;
  readonly cues: readonly string[];
  readonly title: string;
  /** Completes "I want ...". */
  readonly want: string;
  /** Completes "so that ...". */
  readonly outcome: string;
  /** Testable criteria: each names what to call or look at and what must come back. */
  readonly criteria: readonly string[];
  /** The file and function the change belongs in. */
  readonly technicalArea: string;
  readonly services: readonly string[];
}

export const TOPICS: readonly Topic[] = [
  {
    name: 'open-filter',
    cues: ['still open', "what's left", 'scroll past', 'only open'],
    title: 'Show only the open todos',
    want: 'to see only the todos that are still open',
    outcome: 'I do not have to scroll past finished ones to find what is left',
    criteria: [
      "`filterTodos(list, 'open')` returns only the todos whose done flag is false",
      '`filterTodos` returns the open todos in the order they were added',
      "A list in which every todo is done returns an empty list for 'open'",
      'The list passed in still contains its done todos after filtering',
    ],
    technicalArea: 'src/todos.ts (filterTodos)',
    services: ['todo-core'],
  },
  {
    name: 'done-filter',
    cues: ['what i finished', 'look back', "what i've done", 'finished ones'],
    title: 'List finished todos',
    want: 'to list only the todos I have finished',
    outcome: "I can look back on a week's work without the open todos in the way",
    criteria: [
      "`filterTodos(list, 'done')` returns only the todos whose done flag is true",
      '`filterTodos` returns the finished todos in the order they were added',
      "A list with no finished todos returns an empty list for 'done'",
    ],
    technicalArea: 'src/todos.ts (filterTodos)',
    services: ['todo-core'],
  },
  {
    name: 'progress-summary',
    cues: ['how far along', 'how many', 'count the', 'without counting'],
    title: 'Add a done count to the list',
    want: 'a one-line count of how many todos are done',
    outcome: 'I can tell how far along we are without counting ticks by hand',
    criteria: [
      "`summarise(list)` returns '<done> of <total> done', e.g. '12 of 40 done'",
      "After `completeTodo` marks a 13th todo of 40 done, `summarise` returns '13 of 40 done'",
      "A list with no finished todos returns '0 of <total> done'",
    ],
    technicalArea: 'src/todos.ts (summarise)',
    services: ['todo-core'],
  },
  {
    name: 'empty-state',
    cues: ['went blank', 'cleared everything', 'empty list', 'blank screen'],
    title: 'Show a message when the list is empty',
    want: 'the app to tell me when there is nothing left to do',
    outcome: 'an empty list never looks as if the app crashed or lost my todos',
    criteria: [
      "`summarise([])` returns 'nothing to do'",
      "Completing and clearing the last todo shows 'nothing to do' instead of a blank screen",
      "A list with 1 or more todos never returns 'nothing to do'",
    ],
    technicalArea: 'src/todos.ts (summarise)',
    services: ['todo-core'],
  },
  {
    name: 'blank-title',
    cues: ['blank todo', 'empty todo', 'without a title', 'enter twice'],
    title: 'Reject todos without a title',
    want: 'a todo without a title to be refused',
    outcome: 'my list never fills up with blank entries I cannot tell apart',
    criteria: [
      "`addTodo(list, '')` rejects the todo with the error 'a todo needs a title'",
      'A title of only spaces or tabs is rejected with the same error',
      'When a title is rejected, the list passed in still contains the same todos',
    ],
    technicalArea: 'src/todos.ts (addTodo)',
    services: ['todo-core'],
  },
  {
    name: 'trim-title',
    cues: ['spaces in front', 'leading spaces', 'trailing spaces', 'indented'],
    title: 'Trim spaces from pasted titles',
    want: 'the spaces around a pasted title to be removed when the todo is added',
    outcome: 'my list lines up without me fixing each title by hand',
    criteria: [
      "`addTodo(list, '  Call the bank ')` stores the title 'Call the bank'",
      'Tabs and line breaks around a pasted title are removed before the todo is stored',
      "Spaces inside a title are kept: 'Pay rent on 2 May' is stored unchanged",
    ],
    technicalArea: 'src/todos.ts (addTodo)',
    services: ['todo-core'],
  },
  {
    name: 'complete-one',
    cues: ['same title', 'same name', 'todos called', 'wrong one'],
    title: 'Fix ticking one of two todos with the same title',
    want: 'ticking a todo to mark only that todo done',
    outcome: 'a second todo with the same title stays open',
    criteria: [
      '`completeTodo(list, 2)` returns a list in which only todo 2 is done',
      "Given two todos titled 'Invoice client', when one is completed, then the other still shows as open",
      '`completeTodo` with an unknown id rejects the call with an error',
    ],
    technicalArea: 'src/todos.ts (completeTodo)',
    services: ['todo-core'],
  },
];

/** The topics `text` raises, in the order it raises them. */
export function topicsIn(text: string): Topic[] {
  const lower = text.toLowerCase();
  return TOPICS.map((topic) => ({ topic, at: firstCue(lower, topic.cues) }))
    .filter((hit) => hit.at >= 0)
    .sort((a, b) => a.at - b.at)
    .map((hit) => hit.topic);
}

function firstCue(text: string, cues: readonly string[]): number {
  const found = cues.map((cue) => text.indexOf(cue)).filter((at) => at >= 0);
  return found.length === 0 ? -1 : Math.min(...found);
}
