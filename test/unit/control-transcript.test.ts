import { describe, expect, it } from 'vitest';
import { InvalidInputError } from '../../lambdas/core/errors.js';
import {
  AgentOutputAnalysisSchema,
  analyseAgentOutput,
} from '../../lambdas/core/control/transcript/analyse-output.js';
import { assumptionsIn, questionsTo } from '../../lambdas/core/control/transcript/prose.js';
import { findRepeatedSequence } from '../../lambdas/core/control/transcript/tool-calls.js';
import {
  isLintCommand,
  isSecurityScanCommand,
  isTestCommand,
} from '../../lambdas/core/control/transcript/commands.js';
import { parseTranscript } from '../../lambdas/core/control/transcript/parse-stream-json.js';

const CWD = '/home/dev/shop';
const SESSION = '3f1c2a9e-8b7d-4e6f-9a0b-1c2d3e4f5a6b';

/** Builds Claude Code `--output-format stream-json --verbose` lines. */
class StreamJson {
  private readonly lines: string[] = [];
  private next = 1;

  init(): this {
    return this.push({
      type: 'system',
      subtype: 'init',
      cwd: CWD,
      session_id: SESSION,
      tools: [
        'Task',
        'Bash',
        'Glob',
        'Grep',
        'LS',
        'Read',
        'Edit',
        'MultiEdit',
        'Write',
        'TodoWrite',
      ],
      mcp_servers: [],
      model: 'claude-sonnet-4-5-20250929',
      permissionMode: 'bypassPermissions',
      apiKeySource: 'none',
    });
  }

  say(text: string): this {
    return this.assistant([{ type: 'text', text }]);
  }

  /** A tool call and its result. */
  tool(
    name: string,
    input: Record<string, unknown>,
    result: string | object[] = 'ok',
    isError = false,
  ): this {
    const id = `toolu_01${String(this.next++).padStart(4, '0')}`;
    this.assistant([{ type: 'tool_use', id, name, input }]);
    return this.push({
      type: 'user',
      message: {
        role: 'user',
        content: [
          {
            tool_use_id: id,
            type: 'tool_result',
            content: result,
            ...(isError ? { is_error: true } : {}),
          },
        ],
      },
      parent_tool_use_id: null,
      session_id: SESSION,
    });
  }

  read(path: string): this {
    return this.tool('Read', { file_path: `${CWD}/${path}` }, '     1→export const x = 1;\n');
  }

  edit(path: string, n = 0): this {
    return this.tool(
      'Edit',
      { file_path: `${CWD}/${path}`, old_string: `v${n}`, new_string: `v${n + 1}` },
      `The file ${CWD}/${path} has been updated.`,
    );
  }

  bash(command: string, output = '', isError = false): this {
    return this.tool('Bash', { command, description: 'Run it' }, output, isError);
  }

  result(text: string, subtype = 'success', isError = false): this {
    return this.push({
      type: 'result',
      subtype,
      is_error: isError,
      duration_ms: 184_233,
      duration_api_ms: 171_020,
      num_turns: 23,
      result: text,
      session_id: SESSION,
      total_cost_usd: 0.4213,
      usage: { input_tokens: 48_211, output_tokens: 6_004 },
    });
  }

  raw(line: string): this {
    this.lines.push(line);
    return this;
  }

  text(): string {
    return `${this.lines.join('\n')}\n`;
  }

  private assistant(content: object[]): this {
    return this.push({
      type: 'assistant',
      message: {
        id: `msg_01${this.next}`,
        type: 'message',
        role: 'assistant',
        model: 'claude-sonnet-4-5-20250929',
        content,
        stop_reason: null,
        usage: { input_tokens: 4, output_tokens: 120 },
      },
      parent_tool_use_id: null,
      session_id: SESSION,
    });
  }

  private push(event: object): this {
    this.lines.push(JSON.stringify(event));
    return this;
  }
}

const VITEST_FAIL_OUTPUT = `Exit code 1

 RUN  v3.2.4 ${CWD}

 ❯ test/unit/cart.test.ts (3 tests | 1 failed) 9ms
   × Cart > removes an item 5ms
     → expected [ 'apple' ] to deeply equal []

 FAIL  test/unit/cart.test.ts > Cart > removes an item
AssertionError: expected [ 'apple' ] to deeply equal []
 ❯ test/unit/cart.test.ts:14:25

 Test Files  1 failed (1)
      Tests  1 failed | 2 passed (3)
   Duration  612ms`;

const VITEST_PASS_OUTPUT = ` Test Files  1 passed (1)
      Tests  3 passed (3)
   Duration  598ms`;

/** A good iteration: reads, writes a test, fails, fixes, passes, lints, audits, reports. */
function productiveTranscript(): StreamJson {
  return new StreamJson()
    .init()
    .say("I'll start by reading the PRD and the progress log to find the next story.")
    .read('prd.json')
    .read('progress.txt')
    .tool('Grep', { pattern: 'class Cart', path: CWD }, 'src/cart.ts')
    .read('src/cart.ts')
    .say('US-002 asks for removing items. I will write the test first.')
    .tool(
      'Write',
      {
        file_path: `${CWD}/test/unit/cart.test.ts`,
        content: "import { describe } from 'vitest';\n",
      },
      `File created successfully at: ${CWD}/test/unit/cart.test.ts`,
    )
    .bash('npx vitest run test/unit/cart.test.ts', VITEST_FAIL_OUTPUT, true)
    .say('The test fails as expected: `remove` is missing. Implementing it now.')
    .tool(
      'MultiEdit',
      {
        file_path: `${CWD}/src/cart.ts`,
        edits: [{ old_string: 'add(', new_string: 'remove(item) {}\n  add(' }],
      },
      `Applied 1 edit to ${CWD}/src/cart.ts`,
    )
    .bash('npx vitest run test/unit/cart.test.ts', VITEST_PASS_OUTPUT)
    .bash('npx eslint src test', '')
    .bash('npm audit --audit-level=high', 'found 0 vulnerabilities')
    .tool('TodoWrite', { todos: [{ content: 'US-002', status: 'completed' }] }, 'Todos updated')
    .say('<summary>Cart.remove added with tests.</summary>')
    .result('<summary>Cart.remove added with tests.</summary>');
}

describe('Function: parseTranscript', () => {
  it('reads stream-json events and the working directory', () => {
    // Act
    const parsed = parseTranscript(productiveTranscript().text());

    // Assess
    expect(parsed.format).toBe('stream-json');
    expect(parsed.cwd).toBe(CWD);
    expect(parsed.malformedLines).toBe(0);
    expect(parsed.events.filter((event) => event.kind === 'tool_use')).toHaveLength(11);
    expect(parsed.events.filter((event) => event.kind === 'tool_result')).toHaveLength(11);
    expect(parsed.events.at(-1)).toEqual({
      kind: 'result',
      subtype: 'success',
      isError: false,
      text: '<summary>Cart.remove added with tests.</summary>',
      durationMs: 184_233,
      costUsd: 0.4213,
      turns: 23,
      tokens: { input: 48_211, output: 6_004 },
    });
    expect(parsed.events[0]).toEqual({
      kind: 'session',
      model: 'claude-sonnet-4-5-20250929',
      cwd: CWD,
    });
  });

  it('skips and counts lines that are not JSON, and never throws', () => {
    // Prepare
    const text = new StreamJson()
      .init()
      .raw('{"type":"assistant","message":{"content":[{"type":"text","te')
      .raw('Killed')
      .raw('[1, 2]')
      .say('Still here.')
      .text();

    // Act
    const parsed = parseTranscript(text);

    // Assess
    expect(parsed.malformedLines).toBe(3);
    expect(parsed.events.slice(1)).toEqual([{ kind: 'assistant_text', text: 'Still here.' }]);
  });

  it('flattens tool result content blocks to their text', () => {
    const text = new StreamJson()
      .tool('Bash', { command: 'ls' }, [
        { type: 'text', text: 'a.ts' },
        { type: 'image', source: {} },
        { type: 'text', text: 'b.ts' },
      ])
      .text();
    expect(parseTranscript(text).events[1]).toEqual({
      kind: 'tool_result',
      toolUseId: 'toolu_010001',
      isError: false,
      text: 'a.ts\nb.ts',
    });
  });

  it("keeps the runner's wrapped lines of transcript.jsonl with their stream", () => {
    // Prepare
    const text = new StreamJson()
      .init()
      .raw(JSON.stringify({ type: 'text', stream: 'stderr', text: 'Error: spawn git ENOENT' }))
      .raw(JSON.stringify({ type: 'text', stream: 'runner', text: 'runner: gates_failed: test' }))
      .text();

    // Act
    const parsed = parseTranscript(text);

    // Assess
    expect(parsed.format).toBe('stream-json');
    expect(parsed.events.slice(1)).toEqual([
      { kind: 'line', stream: 'stderr', text: 'Error: spawn git ENOENT' },
      { kind: 'line', stream: 'runner', text: 'runner: gates_failed: test' },
    ]);
  });

  it('reads text without Claude Code events as plain, a line per event', () => {
    // Act
    const parsed = parseTranscript('$ npm test\n\n{not json}\nDone.\n');

    // Assess
    expect(parsed.format).toBe('plain');
    expect(parsed.malformedLines).toBe(0);
    expect(parsed.events.map((event) => (event.kind === 'line' ? event.text : ''))).toEqual([
      '$ npm test',
      '{not json}',
      'Done.',
    ]);
  });

  it("reads a plain agent's transcript.jsonl as plain, unwrapping its lines", () => {
    const text = [
      JSON.stringify({ type: 'text', stream: 'stdout', text: '$ cargo test' }),
      JSON.stringify({ type: 'text', stream: 'stderr', text: 'error[E0308]: mismatched types' }),
    ].join('\n');
    expect(parseTranscript(text)).toEqual({
      format: 'plain',
      malformedLines: 0,
      events: [
        { kind: 'line', stream: 'stdout', text: '$ cargo test' },
        { kind: 'line', stream: 'stderr', text: 'error[E0308]: mismatched types' },
      ],
    });
  });
});

describe('Function: analyseAgentOutput', () => {
  describe('a productive iteration', () => {
    const analysis = analyseAgentOutput(productiveTranscript().text());

    it('matches its schema', () => {
      expect(AgentOutputAnalysisSchema.parse(analysis)).toEqual(analysis);
    });

    it('lists files read and written relative to the working directory, first first', () => {
      expect(analysis.format).toBe('stream-json');
      expect(analysis.filesRead).toEqual(['prd.json', 'progress.txt', 'src/cart.ts']);
      expect(analysis.filesWritten).toEqual(['test/unit/cart.test.ts', 'src/cart.ts']);
      expect(analysis.readCalls).toBe(4);
      expect(analysis.writeCalls).toBe(2);
    });

    it('lists commands in order and counts tools', () => {
      expect(analysis.commandsRun).toEqual([
        'npx vitest run test/unit/cart.test.ts',
        'npx vitest run test/unit/cart.test.ts',
        'npx eslint src test',
        'npm audit --audit-level=high',
      ]);
      expect(analysis.toolsUsed).toEqual({
        Read: 3,
        Grep: 1,
        Write: 1,
        Bash: 4,
        MultiEdit: 1,
        TodoWrite: 1,
      });
    });

    it('notes its quality habits', () => {
      expect(analysis).toMatchObject({
        testsWritten: true,
        testsRun: true,
        lintRun: true,
        securityScanRun: true,
      });
    });

    it('collects the errors of the failed test run, normalised', () => {
      expect(analysis.errorsSeen).toEqual([
        'FAIL test/unit/cart.test.ts > Cart > removes an item',
        "AssertionError: expected [ 'apple' ] to deeply equal []",
      ]);
      expect(analysis.distinctErrors).toBe(2);
      expect(analysis.errorOccurrences).toBe(2);
      expect(analysis.errorRepetitionRate).toBe(0);
    });

    it('raises no flag and has a stuck probability of 0', () => {
      expect(analysis).toMatchObject({
        isExploratory: false,
        isStuckPattern: false,
        isThrashing: false,
        questionsAsked: 0,
        stuckProbability: 0,
      });
      expect(analysis.repeatedSequence).toBeUndefined();
    });
  });

  describe('exploratory', () => {
    const reading = (reads: number, writes = 0) => {
      const transcript = new StreamJson().init();
      for (let i = 0; i < reads; i += 1)
        if (i % 3 === 2) transcript.tool('Glob', { pattern: `src/**/*${i}.ts` }, '');
        else transcript.read(`src/module${i}.ts`);
      for (let i = 0; i < writes; i += 1) transcript.edit(`src/module${i}.ts`, i);
      return transcript.text();
    };

    it('is 10 read-only calls (Glob and Grep included) without a write, not 9', () => {
      expect(analyseAgentOutput(reading(9)).isExploratory).toBe(false);
      expect(analyseAgentOutput(reading(10)).isExploratory).toBe(true);
      expect(analyseAgentOutput(reading(11)).isExploratory).toBe(true);
    });

    it('is not exploratory once it writes, unless writes are allowed', () => {
      expect(analyseAgentOutput(reading(12, 1)).isExploratory).toBe(false);
      expect(analyseAgentOutput(reading(12, 1), { exploratoryMaxWrites: 1 }).isExploratory).toBe(
        true,
      );
      expect(analyseAgentOutput(reading(12, 2), { exploratoryMaxWrites: 1 }).isExploratory).toBe(
        false,
      );
    });

    it('honours a configured read threshold', () => {
      expect(analyseAgentOutput(reading(3), { exploratoryMinReads: 4 }).isExploratory).toBe(false);
      expect(analyseAgentOutput(reading(4), { exploratoryMinReads: 4 }).isExploratory).toBe(true);
    });

    it('adds the exploratory weight to the stuck probability', () => {
      expect(analyseAgentOutput(reading(10)).stuckProbability).toBe(0.2);
    });
  });

  describe('stuck pattern', () => {
    it('is the same call 3 times back to back, not 2', () => {
      // Prepare
      const times = (n: number) => {
        const transcript = new StreamJson().init().read('src/a.ts');
        for (let i = 0; i < n; i += 1)
          transcript.bash('npm run build', 'error TS2307: Cannot find module', true);
        return transcript.read('src/b.ts').text();
      };

      // Act
      const twice = analyseAgentOutput(times(2));
      const thrice = analyseAgentOutput(times(3));

      // Assess
      expect(twice.isStuckPattern).toBe(false);
      expect(thrice.isStuckPattern).toBe(true);
      expect(thrice.repeatedSequence).toEqual({ calls: ['Bash npm run build'], repeats: 3 });
    });

    it('is a sequence of 3 calls repeated 3 times', () => {
      // Prepare
      const transcript = new StreamJson().init();
      for (let i = 0; i < 3; i += 1)
        transcript
          .read('src/cart.ts')
          .edit('src/cart.ts')
          .bash('npx vitest run', VITEST_FAIL_OUTPUT, true);

      // Act
      const analysis = analyseAgentOutput(transcript.text());

      // Assess
      expect(analysis.isStuckPattern).toBe(true);
      expect(analysis.repeatedSequence).toEqual({
        calls: ['Read src/cart.ts', 'Edit src/cart.ts', 'Bash npx vitest run'],
        repeats: 3,
      });
    });

    it('does not see a sequence longer than stuckMaxSequenceLength, unless configured', () => {
      // Prepare
      const transcript = new StreamJson().init();
      for (let i = 0; i < 3; i += 1)
        transcript.read('src/a.ts').read('src/b.ts').read('src/c.ts').read('src/d.ts');
      const text = transcript.text();

      // Act / Assess
      expect(analyseAgentOutput(text).isStuckPattern).toBe(false);
      expect(analyseAgentOutput(text, { stuckMaxSequenceLength: 4 }).isStuckPattern).toBe(true);
    });

    it('does not count equal calls with different inputs (real edits) as repeats', () => {
      const transcript = new StreamJson().init();
      for (let i = 0; i < 4; i += 1) transcript.edit('src/cart.ts', i).bash('npx vitest run');
      expect(analyseAgentOutput(transcript.text()).isStuckPattern).toBe(false);
    });

    it('does not count repeats that are not back to back', () => {
      const transcript = new StreamJson()
        .init()
        .bash('npm test')
        .read('src/a.ts')
        .bash('npm test')
        .read('src/b.ts')
        .bash('npm test');
      expect(analyseAgentOutput(transcript.text()).isStuckPattern).toBe(false);
    });

    it('honours a configured repeat count', () => {
      const text = new StreamJson().init().bash('ls').bash('ls').text();
      expect(analyseAgentOutput(text, { stuckMinRepeats: 2 }).isStuckPattern).toBe(true);
    });
  });

  describe('findRepeatedSequence', () => {
    it('finds the most repeated run, the shortest on ties', () => {
      expect(findRepeatedSequence(['a', 'b', 'a', 'b', 'a', 'b', 'c'], 3, 3)).toEqual({
        start: 0,
        length: 2,
        repeats: 3,
      });
      expect(findRepeatedSequence(['x', 'a', 'a', 'a', 'a'], 2, 3)).toEqual({
        start: 1,
        length: 1,
        repeats: 4,
      });
      expect(findRepeatedSequence(['a', 'b', 'a', 'b', 'a'], 2, 3)).toBeUndefined();
      expect(findRepeatedSequence([], 3, 3)).toBeUndefined();
      expect(findRepeatedSequence(['a', 'a', 'a', 'b', 'b', 'b', 'b'], 1, 3)).toEqual({
        start: 3,
        length: 1,
        repeats: 4,
      });
    });
  });

  describe('thrashing', () => {
    const writes = (count: number, files: number, testAfter?: number) => {
      const transcript = new StreamJson().init();
      for (let i = 0; i < count; i += 1) {
        transcript.edit(`src/file${i % files}.ts`, i);
        if (testAfter !== undefined && i + 1 === testAfter) transcript.bash('npm test');
      }
      return transcript.text();
    };

    it('is 10 writes to one file without a test run, not 9', () => {
      expect(analyseAgentOutput(writes(9, 1)).isThrashing).toBe(false);
      expect(analyseAgentOutput(writes(10, 1)).isThrashing).toBe(true);
      expect(analyseAgentOutput(writes(11, 1)).isThrashing).toBe(true);
    });

    it('is 10 writes to 2 files, not to 3', () => {
      expect(analyseAgentOutput(writes(10, 2)).isThrashing).toBe(true);
      expect(analyseAgentOutput(writes(10, 3)).isThrashing).toBe(false);
    });

    it('starts counting afresh after a test run', () => {
      expect(analyseAgentOutput(writes(14, 1, 5)).isThrashing).toBe(false);
      expect(analyseAgentOutput(writes(15, 1, 5)).isThrashing).toBe(true);
    });

    it('honours configured thresholds', () => {
      const options = { thrashMinWrites: 4, thrashMaxFiles: 1 };
      expect(analyseAgentOutput(writes(3, 1), options).isThrashing).toBe(false);
      expect(analyseAgentOutput(writes(4, 1), options).isThrashing).toBe(true);
      expect(analyseAgentOutput(writes(4, 2), options).isThrashing).toBe(false);
    });
  });

  describe('errors', () => {
    const failingRuns = (n: number) => {
      const transcript = new StreamJson().init();
      for (let i = 0; i < n; i += 1)
        transcript
          .edit('src/cart.ts', i)
          .bash(
            'npx tsc --noEmit',
            `Exit code 2\nsrc/cart.ts(${14 + i},7): error TS2322: Type 'string' is not assignable to type 'number'.\nsrc/cart.ts(${14 + i},7): error TS2322: Type 'string' is not assignable to type 'number'.`,
            true,
          );
      return transcript.text();
    };

    it('counts an error once per tool result, and its repetition across results', () => {
      // Act
      const once = analyseAgentOutput(failingRuns(1));
      const twice = analyseAgentOutput(failingRuns(2));
      const thrice = analyseAgentOutput(failingRuns(3));

      // Assess
      expect(once.errorsSeen).toEqual([
        "src/cart.ts(N,N): error TS2322: Type 'string' is not assignable to type 'number'.",
      ]);
      expect([once.errorOccurrences, once.errorRepetitionRate]).toEqual([1, 0]);
      expect([twice.errorOccurrences, twice.errorRepetitionRate]).toEqual([2, 0.5]);
      expect([thrice.errorOccurrences, thrice.errorRepetitionRate]).toEqual([3, 0.666667]);
    });

    it('adds the error-repetition weight above a rate of 0.5, not at it', () => {
      expect(analyseAgentOutput(failingRuns(2)).stuckProbability).toBe(0);
      expect(analyseAgentOutput(failingRuns(3)).stuckProbability).toBe(0.4);
      expect(
        analyseAgentOutput(failingRuns(2), { errorRepetitionThreshold: 0.49 }).stuckProbability,
      ).toBe(0.4);
    });

    it('takes the telling line of an error result that has no error line', () => {
      const text = new StreamJson()
        .init()
        .tool(
          'Write',
          { file_path: `${CWD}/src/a.ts`, content: '' },
          '<tool_use_error>File has not been read yet. Read it first before writing to it.</tool_use_error>',
          true,
        )
        .bash('false', 'Exit code 1', true)
        .text();
      expect(analyseAgentOutput(text).errorsSeen).toEqual([
        'File has not been read yet. Read it first before writing to it.',
        'Exit code 1',
      ]);
    });

    it('does not read errors out of file contents or non-shell tool results', () => {
      const text = new StreamJson()
        .init()
        .tool(
          'Read',
          { file_path: `${CWD}/src/errors.ts` },
          '     1→Error: this is a string in a file\n',
        )
        .tool('Grep', { pattern: 'Error:' }, 'src/a.ts:Error: also not an error')
        .text();
      expect(analyseAgentOutput(text).errorsSeen).toEqual([]);
    });

    it('records an error result event and stderr lines, not the runner notes', () => {
      const text = new StreamJson()
        .init()
        .raw(JSON.stringify({ type: 'text', stream: 'stderr', text: 'Error: spawn git ENOENT' }))
        .raw(JSON.stringify({ type: 'text', stream: 'runner', text: 'Error: not the agent' }))
        .result('', 'error_max_turns', true)
        .text();
      expect(analyseAgentOutput(text).errorsSeen).toEqual([
        'Error: spawn git ENOENT',
        'result: error_max_turns',
      ]);
    });

    it('caps the errors kept and their length, but counts them all', () => {
      // Prepare
      const output = Array.from(
        { length: 30 },
        (_, i) => `Error: failure number ${'x'.repeat(i)}`,
      ).join('\n');
      const text = new StreamJson().init().bash('make', `Exit code 2\n${output}`, true).text();

      // Act
      const analysis = analyseAgentOutput(text, { maxErrors: 5, maxErrorLength: 24 });

      // Assess
      expect(analysis.errorsSeen).toHaveLength(5);
      expect(analysis.distinctErrors).toBe(30);
      expect(analysis.errorsSeen[0]).toBe('Error: failure number');
      expect(analysis.errorsSeen[4]).toBe('Error: failure number x…');
      expect(analysis.errorsSeen[3]).toBe('Error: failure number x…');
      expect(analysis.errorsSeen.every((line) => line.length <= 24)).toBe(true);
    });
  });

  describe('questions and assumptions', () => {
    it('counts questions put to the user, not self-talk or code', () => {
      // Prepare
      const text = new StreamJson()
        .init()
        .say('Why does this test fail? Let me check the fixture.')
        .say('```ts\nconst ok = isValid(x) ? 1 : 2; // why?\n```')
        .say('> Should we support refunds?\nThe PRD quotes that question.')
        .say(
          'The spec is ambiguous. Should I use UTC for the dates? Would you like me to also update the README?',
        )
        .say("I'll assume prices are in cents.")
        .text();

      // Act
      const analysis = analyseAgentOutput(text);

      // Assess
      expect(analysis.questionsAsked).toBe(2);
      expect(analysis.questions).toEqual([
        'Should I use UTC for the dates?',
        'Would you like me to also update the README?',
      ]);
      expect(analysis.assumptionsMade).toEqual(["I'll assume prices are in cents."]);
      expect(analysis.stuckProbability).toBe(0.1);
    });

    it('does not read questions out of tool results', () => {
      const text = new StreamJson().init().bash('cat FAQ.md', 'Do you ship abroad?').text();
      expect(analyseAgentOutput(text).questionsAsked).toBe(0);
    });
  });

  describe('plain transcripts', () => {
    const PLAIN = `Working on US-002: remove items from the cart.
$ npm test
> shop@1.0.0 test
> vitest run

 FAIL  test/unit/cart.test.ts > Cart > removes an item
AssertionError: expected [ 'apple' ] to deeply equal []
      Tests  1 failed | 2 passed (3)
$ cargo clippy -- -D warnings
    Finished \`dev\` profile [unoptimized + debuginfo] target(s) in 0.31s
$ npm test
 FAIL  test/unit/cart.test.ts > Cart > removes an item
AssertionError: expected [ 'apple' ] to deeply equal []
Should I change the test instead?
`;

    it('reads commands from $ lines, errors per command block, and questions from the rest', () => {
      // Act
      const analysis = analyseAgentOutput(PLAIN);

      // Assess
      expect(analysis).toMatchObject({
        format: 'plain',
        malformedLines: 0,
        commandsRun: ['npm test', 'cargo clippy -- -D warnings', 'npm test'],
        filesRead: [],
        filesWritten: [],
        toolsUsed: {},
        testsRun: true,
        lintRun: true,
        securityScanRun: false,
        testsWritten: false,
        errorsSeen: [
          'FAIL test/unit/cart.test.ts > Cart > removes an item',
          "AssertionError: expected [ 'apple' ] to deeply equal []",
        ],
        errorOccurrences: 4,
        distinctErrors: 2,
        errorRepetitionRate: 0.5,
        questionsAsked: 1,
        isExploratory: false,
        isStuckPattern: false,
        isThrashing: false,
      });
    });
  });

  describe('stuck probability', () => {
    it('sums the weights of the signals present and stops at 1', () => {
      // Prepare: the same edit-and-build loop, 12 times, repeating its error, with a question.
      const transcript = new StreamJson().init();
      for (let i = 0; i < 12; i += 1)
        transcript
          .edit('src/cart.ts')
          .bash('npm run build', 'error TS2307: Cannot find module', true);
      transcript.say('Could you check the tsconfig?');

      // Act
      const analysis = analyseAgentOutput(transcript.text());
      const lighter = analyseAgentOutput(transcript.text(), {
        stuckWeights: { stuckPattern: 0.1, thrashing: 0.1, errorRepetition: 0.1, questions: 0.1 },
      });

      // Assess
      expect(analysis).toMatchObject({
        isStuckPattern: true,
        isThrashing: true,
        questionsAsked: 1,
      });
      expect(analysis.stuckProbability).toBe(1);
      expect(lighter.stuckProbability).toBe(0.4);
    });

    it('rejects options out of range', () => {
      expect(() => analyseAgentOutput('', { stuckWeights: { thrashing: 2 } })).toThrow(
        InvalidInputError,
      );
    });
  });

  it('keeps absolute paths when the working directory is unknown', () => {
    const text = new StreamJson().read('src/a.ts').text();
    expect(analyseAgentOutput(text).filesRead).toEqual([`${CWD}/src/a.ts`]);
    expect(analyseAgentOutput(text, { cwd: `${CWD}/` }).filesRead).toEqual(['src/a.ts']);
  });

  it('takes a configured working directory over the init event', () => {
    const text = new StreamJson().init().read('src/a.ts').text();
    expect(analyseAgentOutput(text, { cwd: '/home/dev' }).filesRead).toEqual(['shop/src/a.ts']);
  });

  it('is empty for an empty transcript', () => {
    expect(analyseAgentOutput('')).toMatchObject({
      format: 'plain',
      commandsRun: [],
      errorsSeen: [],
      stuckProbability: 0,
    });
  });
});

describe('Command classification', () => {
  it.each([
    'npm test',
    'npm t',
    'npm run test:unit -- --run',
    'pnpm test',
    'yarn test',
    'bun test',
    'npx vitest run test/unit/cart.test.ts',
    'vitest',
    'CI=1 npx jest --coverage',
    'cd packages/api && npm test',
    'timeout 300 npx vitest run 2>&1 | tail -40',
    'pytest -x tests/',
    'python -m pytest -q',
    'uv run pytest',
    'cargo test --all',
    'cargo nextest run',
    'go test ./...',
    'npx tsx --test test/*.test.ts',
    'node --test',
    'node --import tsx --test test/',
    'deno test',
  ])('%s runs tests', (command) => {
    expect(isTestCommand(command)).toBe(true);
  });

  it.each([
    'npm install -D vitest',
    'cat vitest.config.ts',
    'grep -r "pytest" .',
    'git commit -m "go test fixes"',
    'npm run build',
    'node scripts/test-data.js',
    'ls test/',
    'echo cargo test',
  ])('%s does not run tests', (command) => {
    expect(isTestCommand(command)).toBe(false);
  });

  it.each([
    'npx eslint src',
    'npm run lint',
    'npm run typecheck',
    'npx tsc --noEmit -p .',
    'cargo clippy -- -D warnings',
    'ruff check .',
    'go vet ./...',
    'npx prettier --check .',
  ])('%s lints', (command) => {
    expect(isLintCommand(command)).toBe(true);
  });

  it.each(['npx prettier --write .', 'npm install eslint', 'cat .eslintrc.json'])(
    '%s does not lint',
    (command) => {
      expect(isLintCommand(command)).toBe(false);
    },
  );

  it.each([
    'npm audit --audit-level=high',
    'cargo audit',
    'semgrep --config auto',
    'gitleaks detect',
    'pip-audit',
    'govulncheck ./...',
  ])('%s scans for security problems', (command) => {
    expect(isSecurityScanCommand(command)).toBe(true);
  });

  it.each(['npm install', 'git log --grep audit'])('%s is no security scan', (command) => {
    expect(isSecurityScanCommand(command)).toBe(false);
  });
});

describe('Prose signals', () => {
  it('asks conservatively', () => {
    expect(questionsTo('Do I need to update the schema? Yes.')).toEqual([]);
    expect(questionsTo('Want me to split this PR?')).toEqual(['Want me to split this PR?']);
    expect(questionsTo('Shall we use zod here?')).toEqual(['Shall we use zod here?']);
    expect(questionsTo('Can we be sure? Not yet.')).toEqual([]);
    expect(questionsTo('- **Which option do you prefer?**')).toEqual([
      'Which option do you prefer?',
    ]);
  });

  it('finds stated assumptions, not questions about them', () => {
    expect(assumptionsIn('Assuming that the API is idempotent, retries are safe.')).toEqual([
      'Assuming that the API is idempotent, retries are safe.',
    ]);
    expect(assumptionsIn('Should I assume UTC?')).toEqual([]);
    expect(assumptionsIn('The assumption table lists them.')).toEqual([]);
  });
});
