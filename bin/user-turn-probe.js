#!/usr/bin/env node
// The CLI is TypeScript shared with the web app; tsx runs it directly, no build step.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../src/cli/probe.ts');
process.exitCode = await main(process.argv.slice(2));
