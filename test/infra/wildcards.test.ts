import type { CfnElement, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../lib/paths.js';
import { createRalphApp } from '../../lib/ralph-app.js';
import type { RalphStack } from '../../lib/ralph-stack.js';

/** The README's list of the permissions that name no single resource. */
function readmeList(): Set<string> {
  const readme = readFileSync(join(REPO_ROOT, 'README.md'), 'utf8');
  const start = readme.indexOf('### Permissions that name no single resource');
  const end = readme.indexOf('\n## ', start);
  expect(start).toBeGreaterThan(0);
  return new Set([...readme.slice(start, end).matchAll(/`([^`]+)`/g)].map((match) => match[1]!));
}

/** Every cdk-nag finding acknowledged in the stack, with its reason (CDK's own left out). */
function acknowledgements(stack: Stack): Map<string, string> {
  const found = new Map<string, string>();
  for (const construct of stack.node.findAll())
    for (const entry of construct.node.metadata)
      if (entry.type === 'aws:cdk:acknowledged-rules')
        for (const [id, reason] of Object.entries(entry.data as Record<string, string>)) {
          const rule = id.replace(/^Annotation::/, '');
          if (rule.startsWith('AwsSolutions-')) found.set(rule, reason);
        }
  return found;
}

/** An acknowledged IAM5 resource as the README writes it: no logical ids, no stack names. */
function asListed(resource: string, stack: RalphStack): string {
  const clusterId = stack.resolve(
    (stack.agentCluster.cluster.node.defaultChild as CfnElement).logicalId,
  ) as string;
  return resource
    .replace(/^<[A-Za-z0-9]+\.Arn>\//, '')
    .replace(`<${clusterId}>`, '<cluster>')
    .replace(`execution:${stack.orchestration.stateMachineName}:`, 'execution:<state machine>:')
    .replace(
      /^(arn:<AWS::Partition>:s3:::)[a-z0-9.-]+(\/shared\/bundles\/\*)$/,
      '$1<publisher bucket>$2',
    );
}

/** The actions of every statement granted on the whole account (`*`). */
function actionsOnEverything(template: Template): string[] {
  return Object.values(template.findResources('AWS::IAM::Policy'))
    .flatMap((policy) => policy.Properties.PolicyDocument.Statement)
    .filter((statement) => [statement.Resource].flat().includes('*'))
    .flatMap((statement) => [statement.Action].flat() as string[]);
}

/**
 * Every wildcard resource of the stack, in both its default form and its most locked-down
 * one (Bedrock, private subnets, an egress allow-list) with everything optional on
 * (sharing with a trusted publisher), is in the README's list, and every
 * cdk-nag acknowledgement there says why.
 */
describe('Wildcard permissions and cdk-nag acknowledgements', () => {
  const outdir = mkdtempSync(join(tmpdir(), 'ralph-wildcards-'));
  const built: { stack: RalphStack; template: Template }[] = [];
  const listed = readmeList();

  beforeAll(() => {
    for (const context of [
      {},
      {
        'ralph:modelProvider': 'bedrock',
        'ralph:agentSubnets': 'private',
        'ralph:egressDomains': 'default',
        'ralph:sharingOrganizationId': 'o-a1b2c3d4e5',
        'ralph:sharingTrustedPublishers': JSON.stringify([
          {
            account: '111122223333',
            keyArn: 'arn:aws:kms:eu-west-1:111122223333:key/0f0e0d0c-1111-2222-3333-444455556666',
            bucket: 'ralph-publisher-one',
          },
        ]),
      },
    ]) {
      const { stack } = createRalphApp({
        outdir: mkdtempSync(join(outdir, 'app-')),
        // Bundling is not what this is about; esbuild would cost seconds per function.
        context: { ...context, 'aws:cdk:bundling-stacks': [] },
      });
      built.push({ stack, template: Template.fromStack(stack) });
    }
  });
  afterAll(() => rmSync(outdir, { recursive: true, force: true }));

  it('grants on every resource (`*`) only actions the README lists', () => {
    for (const { template } of built) {
      // Act
      const actions = [...new Set(actionsOnEverything(template))];

      // Assess
      expect(actions.length).toBeGreaterThan(0);
      expect(actions.filter((action) => !listed.has(action))).toEqual([]);
    }
  });

  it('acknowledges only wildcards the README lists, each with a reason', () => {
    for (const { stack } of built) {
      // Act
      const acknowledged = acknowledgements(stack);
      const resources = [...acknowledged.keys()]
        .map((id) => /^AwsSolutions-IAM5\[Resource::(.+)\]$/.exec(id)?.[1])
        .filter((resource) => resource !== undefined)
        .map((resource) => asListed(resource, stack));
      const rules = [...acknowledged.keys()].filter((id) => !id.startsWith('AwsSolutions-IAM5'));

      // Assess
      expect(resources.filter((resource) => !listed.has(resource))).toEqual([]);
      expect(rules.filter((rule) => !listed.has(rule))).toEqual([]);
      for (const [id, reason] of acknowledged) expect(reason.length, id).toBeGreaterThan(40);
    }
  });
});
