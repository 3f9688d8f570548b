#!/usr/bin/env node
// Thin launcher kept outside dist/ so npm can link the bin before the first build.
import '../dist/main.js';
