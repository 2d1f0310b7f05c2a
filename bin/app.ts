/**
 * CDK app entry (`cdk synth`, `cdk deploy`): the ralph-cloud stack, checked by cdk-nag.
 * Configuration comes from context; see `CONTEXT_KEYS` in lib/ralph-app.ts.
 */
import { createRalphApp } from '../lib/ralph-app.js';

const { app } = createRalphApp();
app.synth();
