/**
 * One kind of tool error for the recall fixture: the files that make a tool print it (as a
 * function of the names used, so that each instance fails on other names), and the registry
 * pattern a person would have written after fixing it once.
 */
import type { TaskCategory } from '../../lambdas/core/schemas/learning.js';

export const TOOLS = ['tsc', 'eslint', 'vitest', 'pytest'] as const;
export type Tool = (typeof TOOLS)[number];

/** The names one instance of an error is made with. */
export interface Names {
  /** camelCase, PascalCase and snake_case forms, and a file name. */
  value: string;
  Type: string;
  field: string;
  fn: string;
  pyFn: string;
  pyField: string;
  pyModule: string;
  pkg: string;
  file: string;
}

/** Three sets: the first teaches the pattern, the others are what later tasks fail with. */
export const NAMES: readonly Names[] = [
  {
    value: 'invoice',
    Type: 'Invoice',
    field: 'dueDate',
    fn: 'formatInvoice',
    pyFn: 'format_invoice',
    pyField: 'due_date',
    pyModule: 'invoicing',
    pkg: 'invoice-tools',
    file: 'invoice',
  },
  {
    value: 'cart',
    Type: 'Cart',
    field: 'couponCode',
    fn: 'applyCoupon',
    pyFn: 'apply_coupon',
    pyField: 'coupon_code',
    pyModule: 'checkout',
    pkg: 'cart-helpers',
    file: 'cart',
  },
  {
    value: 'profile',
    Type: 'UserProfile',
    field: 'avatarUrl',
    fn: 'loadProfile',
    pyFn: 'load_profile',
    pyField: 'avatar_url',
    pyModule: 'accounts',
    pkg: 'profile-store',
    file: 'profile',
  },
];

export type Files = Record<string, string>;

export interface ErrorKind {
  /** The pattern's id. */
  id: string;
  tool: Tool;
  /** The pattern: one line on the error, then the fix. */
  title: string;
  body: string;
  tags: string[];
  category?: TaskCategory;
  /** Instances made (NAMES[0..instances-1]); the first teaches, the rest are queried. */
  instances: 2 | 3;
  files: (names: Names) => Files;
}
