/** The arguments and credential options of `ralph hooks send` (program.ts adds the rest). */
import { Argument, Option, type Command } from 'commander';
import { HOOK_SOURCES, SENTRY_RESOURCES } from '../../../lambdas/core/shared/hook-auth/delivery.js';

/** The options a person may keep in the environment rather than type (and show in `ps`). */
const FROM_ENVIRONMENT = { secret: 'RALPH_SENTRY_CLIENT_SECRET', token: 'RALPH_NEWRELIC_TOKEN' };

export function describeHooksSend(send: Command): Command {
  return send
    .addArgument(new Argument('<source>', 'who the delivery is from').choices(HOOK_SOURCES))
    .argument('<file>', 'the payload, a JSON file, sent byte for byte')
    .description(
      'post a payload to <endpoint>/hooks/<source> as its sender would: Sentry signed with its client secret, New Relic with its token, CloudWatch as SNS or EventBridge sends it; prints the answer (exit 0 on 2xx, 4 on 4xx, 70 on 5xx or no answer)',
    )
    .addOption(
      new Option(
        '-e, --endpoint <url>',
        "the Run API to post to (a deployment's ApiUrl, or `ralph serve`)",
      ).env('RALPH_ENDPOINT'),
    )
    .addOption(
      new Option('--secret <secret>', "sentry: the integration's client secret").env(
        FROM_ENVIRONMENT.secret,
      ),
    )
    .addOption(
      new Option(
        '--resource <resource>',
        'sentry: Sentry-Hook-Resource (default: from the payload)',
      ).choices(SENTRY_RESOURCES),
    )
    .addOption(
      new Option('--token <token>', "newrelic: the workflow webhook's token").env(
        FROM_ENVIRONMENT.token,
      ),
    )
    .option(
      '--header <name>',
      'newrelic: send the token in this header (default: Authorization: Bearer)',
    );
}

/**
 * The credential options that came from the environment: one exported for another source
 * must not make this send fail.
 */
export function setFromEnvironment(send: Command): string[] {
  return Object.keys(FROM_ENVIRONMENT).filter((name) => send.getOptionValueSource(name) === 'env');
}
