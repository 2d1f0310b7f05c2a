/**
 * The model double's script and answers without HTTP (`local/model-server/script.ts`,
 * `perform-step.ts`, `message-answer.ts`): which step a request takes, what each step
 * does to an exchange, and the answer body a text becomes.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fault, when } from '../../local/model-server/faults.js';
import type { HttpAnswer } from '../../local/model-server/http.js';
import { messageAnswer } from '../../local/model-server/message-answer.js';
import { messagesApi } from '../../local/model-server/messages-api.js';
import { performStep, type Exchange } from '../../local/model-server/perform-step.js';
import { toServerRequest, type ModelServerRequest } from '../../local/model-server/request.js';
import { ScriptQueue } from '../../local/model-server/script.js';

function requestOf(text: string, maxTokens = 100): ModelServerRequest {
  return toServerRequest(
    {
      model: 'claude-sonnet-4-6',
      max_tokens: maxTokens,
      system: [{ type: 'text', text: 'Be brief.' }],
      messages: [
        { role: 'user', content: text },
        { role: 'assistant', content: 'not JSON' },
        { role: 'user', content: [{ type: 'text', text: 'Answer again.' }] },
      ],
    },
    {},
    'messages',
  );
}

/** An exchange that records what was sent, and whether the connection was dropped. */
function recordingExchange(request: ModelServerRequest) {
  const sent: HttpAnswer[] = [];
  let dropped = false;
  const exchange: Exchange = {
    request,
    api: messagesApi(undefined),
    send: (answer) => sent.push(answer),
    closed: () => dropped || sent.length > 0,
    drop: () => {
      dropped = true;
    },
  };
  return { exchange, sent, dropped: () => dropped };
}

function stateOf(responder = () => 'from the responder') {
  return { responder, timers: new Set<NodeJS.Timeout>(), answered: 0 };
}

afterEach(() => {
  vi.useRealTimers();
});

describe('Function: toServerRequest', () => {
  it('flattens the system prompt and every message to text', () => {
    // Act
    const request = requestOf('Judge this.');

    // Assess
    expect(request).toMatchObject({
      system: 'Be brief.',
      firstUserText: 'Judge this.',
      lastUserText: 'Answer again.',
      protocol: 'messages',
    });
    expect(request.messages.map((message) => message.role)).toEqual(['user', 'assistant', 'user']);
  });
});

describe('Class: ScriptQueue', () => {
  it('gives each request the first step it matches, in queue order', () => {
    // Prepare
    const script = new ScriptQueue();
    const forStory2 = when((request) => request.firstUserText.includes('story_2'), fault.drop());
    script.push(forStory2, fault.overloaded());

    // Act
    const first = script.take(requestOf('story_1'));
    const second = script.take(requestOf('story_2'));

    // Assess
    expect(first).toMatchObject({ kind: 'error', status: 529 });
    expect(second).toMatchObject({ kind: 'drop' });
    expect(script.pending).toBe(0);
    expect(script.take(requestOf('story_1'))).toBeUndefined();
  });

  it('forgets every step on clear', () => {
    // Prepare
    const script = new ScriptQueue();
    script.push(fault.drop(), fault.drop());

    // Act
    script.clear();

    // Assess
    expect(script.pending).toBe(0);
  });
});

describe('Function: performStep', () => {
  it('answers with the responder when no step was taken, numbering the answers', () => {
    // Prepare
    const { exchange, sent } = recordingExchange(requestOf('hi'));
    const state = stateOf();

    // Act
    performStep(undefined, exchange, state);

    // Assess
    expect(state.answered).toBe(1);
    expect(sent).toEqual([
      expect.objectContaining({
        status: 200,
        body: expect.objectContaining({
          id: 'msg_offline_000001',
          content: [{ type: 'text', text: 'from the responder' }],
        }),
      }),
    ]);
  });

  it('answers a slow step after its delay, with the responder of that moment', () => {
    // Prepare
    vi.useFakeTimers();
    const { exchange, sent } = recordingExchange(requestOf('hi'));
    const state = stateOf();

    // Act
    performStep(fault.slow(500), exchange, state);
    state.responder = () => 'replaced';
    const early = sent.length;
    vi.advanceTimersByTime(500);

    // Assess
    expect(early).toBe(0);
    expect(state.timers.size).toBe(0);
    expect(sent[0]?.body).toMatchObject({ content: [{ type: 'text', text: 'replaced' }] });
  });

  it('drops the connection, and does nothing on a closed one', () => {
    // Prepare
    const drop = recordingExchange(requestOf('hi'));
    const closed = recordingExchange(requestOf('hi'));
    closed.exchange.drop();

    // Act
    performStep(fault.drop(), drop.exchange, stateOf());
    performStep(fault.text('late'), closed.exchange, stateOf());

    // Assess
    expect(drop.dropped()).toBe(true);
    expect(drop.sent).toEqual([]);
    expect(closed.sent).toEqual([]);
  });

  it("sends a scripted error in the exchange's API shape", () => {
    // Prepare
    const { exchange, sent } = recordingExchange(requestOf('hi'));

    // Act
    performStep(fault.serverError(), exchange, stateOf());

    // Assess
    expect(sent).toEqual([
      {
        status: 500,
        body: { type: 'error', error: { type: 'api_error', message: 'Internal server error' } },
        headers: undefined,
      },
    ]);
  });
});

describe('Function: messageAnswer', () => {
  it('cuts a text longer than max_tokens (four characters a token) and says so', () => {
    // Act
    const answer = messageAnswer(7, requestOf('hi', 2), 'abcdefghijkl');

    // Assess
    expect(answer).toMatchObject({
      id: 'msg_offline_000007',
      model: 'claude-sonnet-4-6',
      content: [{ type: 'text', text: 'abcdefgh' }],
      stop_reason: 'max_tokens',
      usage: { output_tokens: 2 },
    });
  });

  it("keeps a scripted text whole, with the step's stop reason", () => {
    // Act
    const answer = messageAnswer(1, requestOf('hi', 1), 'a long scripted answer', 'stop_sequence');

    // Assess
    expect(answer.content[0]?.text).toBe('a long scripted answer');
    expect(answer.stop_reason).toBe('stop_sequence');
  });
});
