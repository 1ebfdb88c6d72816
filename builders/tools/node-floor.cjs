// Refuses, in one line and with exit status 2, a Node.js older than package.json's engines.node, before
// `npm start`, `npm run build`, `npm run demo` or `npm test` does any work: on an older line they fail
// late and obscurely (the test runner crashes after minutes with no summary). The floor is read from
// package.json, never repeated here. CommonJS and ES5 on purpose: this file must itself run on the old
// lines it refuses (no `import`, no `??`, no `?.`, no template literals).
'use strict';

var fs = require('fs');
var path = require('path');

/** [major, minor, patch] of "22.12", "22.12.0" or "v20.20.2"; null when it is none of these. */
function parseVersion(text) {
  var match = /^v?(\d+)(?:\.(\d+))?(?:\.(\d+))?$/.exec(text);
  if (!match) return null;
  return [Number(match[1]), Number(match[2] || 0), Number(match[3] || 0)];
}

function below(version, floor) {
  for (var i = 0; i < 3; i++) if (version[i] !== floor[i]) return version[i] < floor[i];
  return false;
}

function refuse(line) {
  process.stderr.write('node-floor: ' + line + '\n');
  process.exit(2);
}

var packageFile = path.join(__dirname, '..', '..', 'package.json');
var range;
try {
  range = JSON.parse(fs.readFileSync(packageFile, 'utf8')).engines.node;
} catch (error) {
  refuse('cannot read engines.node from ' + packageFile + ': ' + error.message);
}
// Only the form this project uses, ">=X.Y": anything else is refused rather than half understood.
var floorMatch = /^\s*>=\s*(\S+)\s*$/.exec(String(range));
var floor = floorMatch && parseVersion(floorMatch[1]);
if (!floor) refuse('engines.node in ' + packageFile + ' is "' + range + '"; expected ">=<major>.<minor>"');

var current = parseVersion(process.versions.node);
if (current && below(current, floor)) {
  var needs = 'this project needs Node.js ' + floorMatch[1] + ' or newer (package.json engines.node "' + range + '")';
  refuse(needs + '; this is Node.js ' + process.versions.node + ' (' + process.execPath + ')');
}
