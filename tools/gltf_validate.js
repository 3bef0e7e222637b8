#!/usr/bin/env node
// Validates glTF files with the Khronos glTF validator (npm package gltf-validator, installed by
// tools/setup.sh into tools/gltf_validator/). Prints each file's issue counts and every error and
// warning; exits 1 when a file has an error (or, with --no-warnings, a warning), 2 when the
// validator is not installed or a file cannot be read.
// Usage: tools/gltf_validate.js [--no-warnings] FILE.glb|FILE.gltf...
'use strict';
const fs = require('fs');
const path = require('path');

let validator;
try {
  validator = require(path.join(__dirname, 'gltf_validator', 'node_modules', 'gltf-validator'));
} catch (e) {
  console.error('gltf_validate: the validator is not installed (run tools/setup.sh): ' + e.message);
  process.exit(2);
}

async function main(args) {
  const strict = args.includes('--no-warnings');
  const files = args.filter((a) => a !== '--no-warnings');
  if (files.length === 0) {
    console.error('usage: tools/gltf_validate.js [--no-warnings] FILE.glb|FILE.gltf...');
    return 2;
  }
  let status = 0;
  for (const file of files) {
    let bytes;
    try {
      bytes = new Uint8Array(fs.readFileSync(file));
    } catch (e) {
      console.error(file + ': cannot read: ' + e.message);
      return 2;
    }
    const report = await validator.validateBytes(bytes, {uri: path.basename(file), maxIssues: 0});
    const i = report.issues;
    console.log(`${file}: ${i.numErrors} errors, ${i.numWarnings} warnings, ${i.numInfos} infos, ` +
                `${i.numHints} hints (validator ${report.validatorVersion})`);
    for (const m of i.messages) {
      const kind = ['error', 'warning', 'info', 'hint'][m.severity];
      console.log(`  ${kind} ${m.code}: ${m.message}${m.pointer ? ' at ' + m.pointer : ''}`);
    }
    if (i.numErrors > 0 || (strict && i.numWarnings > 0)) status = 1;
  }
  return status;
}

main(process.argv.slice(2)).then((code) => process.exit(code), (e) => {
  console.error('gltf_validate: ' + e);
  process.exit(2);
});
