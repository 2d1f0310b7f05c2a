/**
 * `ralph patterns …` and `ralph rules …`: what runs learn across runs (the cross-loop
 * registry, project rules), and the dual-mode evaluation's pattern set migration.
 */
import { type Command, Option } from 'commander';
import { PATTERN_TYPES, type PatternType } from '../../../lambdas/core/schemas/learning.js';
import { DEFAULT_LEARNING_CONFIG } from '../../../lambdas/core/schemas/learning-config.js';
import { collect, positiveInt, share } from '../option-values.js';
import { endpointOption, type CommandContext } from '../command-context.js';
import { patternsMigrateCommand } from '../commands/patterns-migrate.js';
import {
  patternsListCommand,
  patternsPruneCommand,
  patternsShowCommand,
} from './patterns-commands.js';
import { patternsExportCommand, patternsImportCommand } from './bundle-commands.js';
import {
  rulesDeprecateCommand,
  rulesListCommand,
  rulesShowCommand,
  rulesStatsCommand,
} from './rules-commands.js';

const SCOPE_HELP =
  'org or project:<id> (repeatable) (default: every scope: org and each project of a run or route)';
const LOCAL_ONLY = ' (local data directory only for now: --endpoint is refused)';

export function addPatterns(program: Command, context: CommandContext): void {
  const patterns = program
    .command('patterns')
    .description(
      "the cross-loop pattern registry (error fixes, successful approaches, anti-patterns, code templates runs learned), and migrating the dual-mode evaluation's v1 pattern files",
    );
  addRegistryViews(patterns, context);
  addBundles(patterns, context);
  patterns
    .command('migrate')
    .argument('<file>', 'a v1 learned_patterns.json')
    .description(
      'convert a v1 learned_patterns.json to a v2 pattern set, accounting for every entry',
    )
    .option('-o, --out <path>', 'where to write the v2 set (default: <file>.v2.json)')
    .option('--force', 'overwrite --out if it exists', false)
    .action(async (file: string, options: { out?: string; force?: boolean }) => {
      const { setExit, globals, out } = context;
      setExit(await patternsMigrateCommand(file, { ...options, json: globals().json }, out()));
    });
}

/** list, show, prune. */
function addRegistryViews(patterns: Command, { setExit, globals, out }: CommandContext): void {
  patterns
    .command('list')
    .description(`registry patterns by type, the best first${LOCAL_ONLY}`)
    .addOption(new Option('--type <type>', 'only this type').choices(PATTERN_TYPES))
    .option('--min-success-rate <share>', 'only patterns at least this successful (0 to 1)', share)
    .option('--tag <tag>', 'only patterns with this tag (repeatable: every tag given)', collect)
    .option('--scope <scope>', SCOPE_HELP, collect)
    .addOption(endpointOption())
    .action(
      async (options: {
        type?: PatternType;
        minSuccessRate?: number;
        tag?: string[];
        scope?: string[];
        endpoint?: string;
      }) => {
        const { tag, ...rest } = options;
        setExit(
          await patternsListCommand(
            { ...globals(), ...rest, ...(tag ? { tags: tag } : {}) },
            out(),
          ),
        );
      },
    );
  patterns
    .command('show')
    .argument('<pattern>', 'pattern id')
    .description(`one pattern: every field, its sources and its trend${LOCAL_ONLY}`)
    .option('--scope <scope>', SCOPE_HELP, collect)
    .addOption(endpointOption())
    .action(async (patternId: string, options: { scope?: string[]; endpoint?: string }) => {
      setExit(await patternsShowCommand(patternId, { ...globals(), ...options }, out()));
    });
  const prune = DEFAULT_LEARNING_CONFIG.prune;
  patterns
    .command('prune')
    .description(`move failing or idle patterns to the archive (never deleted)${LOCAL_ONLY}`)
    .option('--dry-run', 'list what would be archived and why; write nothing', false)
    .option(
      '--min-success-rate <share>',
      `archive patterns below this success rate … (default: ${prune.minSuccessRate})`,
      share,
    )
    .option(
      '--min-uses <n>',
      `… after at least this many uses (default: ${prune.minUses})`,
      positiveInt,
    )
    .option(
      '--max-idle-days <n>',
      `archive patterns not used (nor created) for more days than this (default: ${prune.maxIdleDays})`,
      positiveInt,
    )
    .option('--scope <scope>', SCOPE_HELP, collect)
    .addOption(endpointOption())
    .action(async (options: Parameters<typeof patternsPruneCommand>[0]) => {
      setExit(await patternsPruneCommand({ ...globals(), ...options }, out()));
    });
}

/** export, import. */
function addBundles(patterns: Command, { setExit, globals, out }: CommandContext): void {
  patterns
    .command('export')
    .description(
      `write registry patterns (and the exported projects' rules) to a bundle file${LOCAL_ONLY}`,
    )
    .requiredOption('-o, --output <file>', 'the bundle file to write')
    .option('--force', 'overwrite --output if it exists', false)
    .option('--scope <scope>', SCOPE_HELP, collect)
    .addOption(endpointOption())
    .action(async (options: Parameters<typeof patternsExportCommand>[0]) => {
      setExit(await patternsExportCommand({ ...globals(), ...options }, out()));
    });
  patterns
    .command('import')
    .description(
      `add a bundle's patterns and rules, checked whole first; reports each added, merged or skipped${LOCAL_ONLY}`,
    )
    .requiredOption('-i, --input <file>', 'a bundle `ralph patterns export` wrote')
    .option(
      '--scope <scope>',
      "put every pattern in this scope: org or project:<id> (default: each pattern's own, if a run or route names its project)",
    )
    .addOption(endpointOption())
    .action(async (options: Parameters<typeof patternsImportCommand>[0]) => {
      setExit(await patternsImportCommand({ ...globals(), ...options }, out()));
    });
}

export function addRules(program: Command, { setExit, globals, out }: CommandContext): void {
  const rules = program
    .command('rules')
    .description(
      'project rules: lessons a run promoted at its end (seen at least twice in it), given to later runs of the project',
    );
  const projectHelp = 'project id (default: every project of a run or route)';
  rules
    .command('list')
    .description(`every rule, active and deprecated${LOCAL_ONLY}`)
    .option('-p, --project <project>', projectHelp)
    .addOption(endpointOption())
    .action(async (options: { project?: string; endpoint?: string }) => {
      setExit(await rulesListCommand({ ...globals(), ...options }, out()));
    });
  rules
    .command('show')
    .argument('<rule>', 'rule id')
    .description(`one rule, field by field${LOCAL_ONLY}`)
    .requiredOption('-p, --project <project>', 'project id')
    .addOption(endpointOption())
    .action(async (ruleId: string, options: { project: string; endpoint?: string }) => {
      setExit(await rulesShowCommand(ruleId, { ...globals(), ...options }, out()));
    });
  rules
    .command('deprecate')
    .argument('<rule>', 'rule id')
    .description(
      `stop giving a rule to runs (kept, marked deprecated; refused if it changed meanwhile)${LOCAL_ONLY}`,
    )
    .requiredOption('-p, --project <project>', 'project id')
    .option('--reason <text>', 'why, kept with the rule')
    .addOption(endpointOption())
    .action(
      async (ruleId: string, options: { project: string; reason?: string; endpoint?: string }) => {
        setExit(await rulesDeprecateCommand(ruleId, { ...globals(), ...options }, out()));
      },
    );
  rules
    .command('stats')
    .description(`rules by category and the most promoted${LOCAL_ONLY}`)
    .option('-p, --project <project>', projectHelp)
    .addOption(endpointOption())
    .action(async (options: { project?: string; endpoint?: string }) => {
      setExit(await rulesStatsCommand({ ...globals(), ...options }, out()));
    });
}
