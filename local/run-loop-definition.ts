import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** The one state machine definition, the file the CDK stack deploys. */
export const RUN_LOOP_ASL_PATH = fileURLToPath(
  new URL('../statemachines/run-loop.asl.json', import.meta.url),
);

/** Every `${Name}` placeholder in the definition, in order of first use. */
export function placeholdersOf(text: string): string[] {
  return [...new Set([...text.matchAll(/\$\{([A-Za-z0-9]+)\}/g)].map((match) => match[1] ?? ''))];
}

/**
 * The definition with its placeholders filled in, as CloudFormation's
 * DefinitionSubstitutions does; a placeholder left without a value is an error.
 */
export function loadRunLoopDefinition(substitutions: Record<string, string>): unknown {
  const text = readFileSync(RUN_LOOP_ASL_PATH, 'utf8');
  const missing = placeholdersOf(text).filter((name) => !(name in substitutions));
  if (missing.length > 0) throw new Error(`no substitution for ${missing.join(', ')}`);
  return JSON.parse(
    text.replace(/\$\{([A-Za-z0-9]+)\}/g, (_, name: string) => substitutions[name] ?? ''),
  ) as unknown;
}

const LOCAL_ACCOUNT = '000000000000';
const LOCAL_REGION = 'local-1';

/** Stand-in ARNs: the local engine maps every Task to an in-process function by state name. */
export const LOCAL_SUBSTITUTIONS: Record<string, string> = {
  InitRunFunctionArn: localFunctionArn('init-run'),
  OpenFixPullRequestFunctionArn: localFunctionArn('open-fix-pull-request'),
  CollectArtefactsFunctionArn: localFunctionArn('collect-artefacts'),
  JudgeArtefactFunctionArn: localFunctionArn('judge-artefact'),
  EvaluateCheapFunctionArn: localFunctionArn('evaluate-cheap'),
  AnalyzeGapFunctionArn: localFunctionArn('analyze-gap'),
  AdvanceFunctionArn: localFunctionArn('advance'),
  PauseRunFunctionArn: localFunctionArn('pause-run'),
  FinalizeRunFunctionArn: localFunctionArn('finalize-run'),
  AgentClusterArn: `arn:aws:ecs:${LOCAL_REGION}:${LOCAL_ACCOUNT}:cluster/ralph-local`,
  AgentTaskDefinitionArn: `arn:aws:ecs:${LOCAL_REGION}:${LOCAL_ACCOUNT}:task-definition/ralph-agent:1`,
  AgentSubnetIds: 'subnet-local',
  AgentSecurityGroupId: 'sg-local',
  AgentAssignPublicIp: 'DISABLED',
  AgentContainerName: 'agent',
};

export const LOCAL_STATE_MACHINE_ARN = `arn:aws:states:${LOCAL_REGION}:${LOCAL_ACCOUNT}:stateMachine:ralph-run-loop`;

function localFunctionArn(name: string): string {
  return `arn:aws:lambda:${LOCAL_REGION}:${LOCAL_ACCOUNT}:function:ralph-${name}`;
}
