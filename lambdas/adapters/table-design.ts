/**
 * The single-table key design, shared by the DynamoDB adapter, the CDK Storage construct
 * and the local emulator so that all three create and read the same table.
 * docs/data-model.md documents the items and access patterns.
 */
export const TABLE_KEYS = {
  partitionKey: 'pk',
  sortKey: 'sk',
  gsi1: { indexName: 'gsi1', partitionKey: 'gsi1pk', sortKey: 'gsi1sk' },
} as const;

/**
 * The partitions of project routes: one for the routes, one per route match (its pointer).
 * Named here so that the routes store and the grant on them (lib/) agree.
 */
export const ROUTE_PARTITIONS = { routes: 'ROUTES', matchPrefix: 'ROUTEMATCH#' } as const;
