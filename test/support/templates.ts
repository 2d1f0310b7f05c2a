import { promptTemplates } from '../../lambdas/adapters/prompt-template-files.js';

/** The shipped prompt templates, as the entry points load them. */
export const templates = promptTemplates();
