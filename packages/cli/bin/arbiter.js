#!/usr/bin/env node
// Committed launcher so npm can link the `arbiter` bin before the TypeScript build has run.
import '../dist/bin.js';
