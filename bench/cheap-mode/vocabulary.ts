/** The words the generated patterns and user stories are made of. */

/** User-story vocabulary: product, engineering and business words. */
export const WORDS = `
account accounts admin alert alerts analytics api approval archive audit authentication
authorization avatar backend backup badge balance banner batch billing board bookmark
branch browser budget bug build bulk button cache calendar campaign card cart catalog
category certificate change channel chart checkout client cluster column comment compliance
config connector consent contact container content contract conversion cookie coupon
credential csv currency customer dashboard database deadline deploy deployment device
digest discount document domain download draft dropdown duplicate editor email encryption
endpoint environment error event export feature feed field file filter firmware folder
form forecast gateway grid group header health history hook import inbox index integration
invoice invite issue job key label language latency layout ledger license limit link
listing locale lock log login logout mailbox map margin member menu merge message metric
migration mobile modal module monitor notification oauth onboarding order organization
owner package page pagination panel partner password payload payment payout pdf permission
pipeline plan platform plugin policy portal preference preview price pricing profile
project prompt provider query queue quota rate receipt record refund region release
reminder report repository request retry revenue review role rollout route rule sandbox
schedule schema scope screen search secret segment session setting shipment signup sitemap
slack sso snapshot spreadsheet status storage store stripe subscription summary support
survey sync table tag tax team template tenant test theme thread threshold ticket timeline
timeout timezone token tooltip trace tracking transaction translation trial upload usage
user vendor version video view webhook widget wizard workflow workspace zone
`
  .trim()
  .split(/\s+/);

/** General English filler: most of a story's words are not domain terms. */
export const GENERAL = `
able about above across action actually after again against ahead already also always
among another answer any anyone anything appear around ask available away back based
basic because become been before begin behind being below best better between both bring
but call can case certain clear clearly close come common complete could current day
different directly during each early easily easy either else enough even every exactly
example expect fact fast find first follow full further get give given going good great
happen hard have help here high however important include instead just keep kind know
large last later least less let like likely little long look lot made make many may mean
might more most much must near need never new next note now number often once only open
other over part people place point possible quickly rather ready really right same see
seem several should show simple since small some something soon still such sure take than
that their them then there these they thing think this those through time today together
too toward try under until use used useful usually very want way well what when where
which while whole will with within work would year yet
`
  .trim()
  .split(/\s+/);

export const VERBS = ['add', 'fix', 'update', 'improve', 'enable', 'implement', 'support', 'show'];
export const ROLES = [
  'admin',
  'customer',
  'support agent',
  'account owner',
  'developer',
  'finance lead',
];
export const GLUE = [
  'the',
  'a',
  'when',
  'so that',
  'and',
  'for each',
  'without',
  'after',
  'before',
];
export const SUFFIXES = ['s', 'ed', 'ing', 'er'];
export const REPOS: Record<string, string[]> = {
  aero: ['packages/', 'infra/', 'apps/'],
  tack: ['service/', 'client/'],
  charlotte: ['packages/'],
  ghostwriter: ['stack/'],
  zuck: ['service/'],
};
