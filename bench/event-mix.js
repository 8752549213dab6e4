'use strict';
/**
 * The event workload shared by the event stream benchmark and the load run: a fixed,
 * seeded mix of topics (alarms and states clients filter for, and high-rate telemetry
 * nobody selects), and the 60 distinct 3-filter sets clients configure (a concrete
 * path, a `//.` subtree alternative, a content filter). Needs dist/ (`npm run build`).
 */
const path = require('node:path');

const DIST = path.join(__dirname, '..', 'dist');

/** The scenario player's seeded PRNG, so every run (and every machine) gets the same event sequence. */
const { seededRandom } = require(path.join(DIST, 'base', 'random.js'));

/**
 * The topic mix: weight (percent) and a message maker. About 60% of the traffic is
 * high-rate telemetry no client here subscribes to (position, motion sensor,
 * bitrate, CPU, VMD); the rest are the alarms and states clients do filter for.
 */
const TOPICS = [
  // Device I/O and status
  {
    w: 5,
    topic: 'tns1:Device/tnsvendor:IO/Port',
    make: (r) => ({ source: { port: pick(r, ['1', '2', '3', '4']) }, data: { state: pick(r, ['0', '1']) } }),
  },
  {
    w: 3,
    topic: 'tns1:Device/tnsvendor:IO/VirtualInput',
    make: (r) => ({ source: { port: String(1 + Math.floor(r() * 8)) }, data: { active: pick(r, ['0', '1']) } }),
  },
  {
    w: 3,
    topic: 'tns1:Device/tnsvendor:Sensor/PIR',
    make: (r) => ({ source: { sensor: '0' }, data: { state: pick(r, ['0', '1']) } }),
  },
  {
    w: 2,
    topic: 'tns1:Device/tnsvendor:Status/Temperature/Inside',
    make: (r) => ({ source: { sensor: '0' }, data: { sensor_level: pick(r, ['0', '1', '2']) } }),
  },
  {
    w: 2,
    topic: 'tns1:Device/tnsvendor:Light/Status',
    make: (r) => ({ source: { id: '0' }, data: { state: pick(r, ['ON', 'OFF']) } }),
  },
  {
    w: 1,
    topic: 'tns1:Device/tnsvendor:Network/Lost',
    make: (r) => ({ source: { interface: pick(r, ['wlan0', 'lte0']) }, data: { lost: pick(r, ['0', '1']) } }),
  },
  // Video source and rule engine alarms
  {
    w: 3,
    topic: 'tns1:VideoSource/MotionAlarm',
    make: (r) => ({
      source: { VideoSourceConfigurationToken: pick(r, ['0', '1']) },
      data: { State: pick(r, ['0', '1']) },
    }),
  },
  {
    w: 1,
    topic: 'tns1:VideoSource/tnsvendor:Tampering',
    make: (r) => ({ source: { channel: pick(r, ['1', '2']) }, data: { tampering: pick(r, ['0', '1']) } }),
  },
  {
    w: 1,
    topic: 'tns1:VideoSource/tnsvendor:DayNightVision',
    make: (r) => ({ source: { VideoSourceConfigurationToken: '0' }, data: { day: pick(r, ['0', '1']) } }),
  },
  {
    w: 3,
    topic: 'tns1:RuleEngine/MotionRegionDetector/Motion',
    make: (r) => ({
      source: { VideoSource: '0', RuleName: pick(r, ['Door', 'Hallway', 'Parking']) },
      data: { State: pick(r, ['0', '1']) },
    }),
  },
  {
    w: 2,
    topic: 'tns1:RuleEngine/tnsvendor:ObjectAnalytics/Device1Scenario1',
    make: (r) => ({ data: { active: pick(r, ['0', '1']), classTypes: pick(r, ['human', 'car', 'human,car']) } }),
  },
  {
    w: 1,
    topic: 'tns1:Storage/Disruption',
    make: (r) => ({
      source: { disk_id: pick(r, ['SD_DISK', 'NetworkShare']) },
      data: { disruption: pick(r, ['0', '1']) },
    }),
  },
  // Body worn states
  {
    w: 5,
    topic: 'tnsvendor:BodyWorn/Recording/State',
    make: (r) => ({
      source: { camera: '1' },
      data: { recording: pick(r, ['0', '1']), reason: pick(r, ['button', 'holster', 'remote']) },
    }),
  },
  {
    w: 3,
    topic: 'tnsvendor:BodyWorn/Power/Battery',
    make: (r) => ({ data: { level: String(Math.floor(r() * 101)), charging: pick(r, ['0', '1']) } }),
  },
  {
    w: 2,
    topic: 'tnsvendor:BodyWorn/Holster/State',
    make: (r) => ({ source: { holster: '0' }, data: { drawn: pick(r, ['0', '1']) } }),
  },
  {
    w: 3,
    topic: 'tnsvendor:BodyWorn/Button/Press',
    make: (r) => ({ source: { button: pick(r, ['record', 'mark', 'ptt']) }, data: { pressed: '1' } }),
  },
  // High-rate telemetry nobody here subscribes to
  {
    w: 25,
    topic: 'tnsvendor:BodyWorn/Location/GNSS',
    make: (r) => ({
      source: { receiver: '0' },
      data: { lat: (59 + r()).toFixed(6), lon: (18 + r()).toFixed(6), fix: '3d' },
    }),
  },
  {
    w: 15,
    topic: 'tnsvendor:BodyWorn/Sensor/Accelerometer',
    make: (r) => ({
      source: { sensor: '0' },
      data: { x: (r() * 2 - 1).toFixed(3), y: (r() * 2 - 1).toFixed(3), z: (r() * 2 - 1).toFixed(3) },
    }),
  },
  {
    w: 10,
    topic: 'tnsvendor:Media/Bitrate',
    make: (r) => ({
      source: { stream: pick(r, ['main', 'sub']) },
      data: { kbps: String(800 + Math.floor(r() * 4000)) },
    }),
  },
  {
    w: 5,
    topic: 'tns1:Monitoring/ProcessorUsage',
    make: (r) => ({ source: { cpu: '0' }, data: { value: (r() * 100).toFixed(1) } }),
  },
  {
    w: 5,
    topic: 'tnsvendor:CameraApplicationPlatform/VMD/Camera1Profile1',
    make: (r) => ({ data: { active: pick(r, ['0', '1']) } }),
  },
];

function pick(rand, values) {
  return values[Math.floor(rand() * values.length)];
}

/** The event sequence: topic, message and an explicit timestamp, so every publish of event i serialises identically. */
function makeEvents(count) {
  const rand = seededRandom(0xb3c);
  const total = TOPICS.reduce((s, t) => s + t.w, 0);
  const base = Date.UTC(2025, 0, 15, 8, 0, 0);
  const events = [];
  for (let i = 0; i < count; i++) {
    let x = rand() * total;
    let t = TOPICS[0];
    for (const candidate of TOPICS) {
      if (x < candidate.w) {
        t = candidate;
        break;
      }
      x -= candidate.w;
    }
    events.push({ topic: t.topic, message: t.make(rand), timestamp: base + i * 7 });
  }
  return events;
}

const CONCRETE = [
  'tns1:Device/tnsvendor:IO/Port',
  'onvif:Device/tnsvendor:IO/VirtualInput',
  'tnsvendor:BodyWorn/Recording/State',
  'tns1:Device/tnsvendor:Sensor/PIR',
];
const SUBTREE = [
  'tns1:VideoSource//. | tns1:Storage//.',
  'tns1:RuleEngine//. | tnsvendor:BodyWorn/Holster//.',
  'onvif:VideoSource//. | tnsvendor:BodyWorn/Power//.',
];
const CONTENT = [
  "boolean(//SimpleItem[@Name='port' and @Value='1'])",
  "boolean(//SimpleItem[@Name='State' and @Value='1'])",
  "boolean(//SimpleItem[@Name='port' and @Value='2'])",
  "boolean(//SimpleItem[@Name='recording' and @Value='1']) or boolean(//SimpleItem[@Name='drawn' and @Value='1'])",
  "boolean(//SimpleItem[@Name='port' and (@Value='3' or @Value='4')])",
];

/** More topic alternatives, for clients that select by topic alone. */
const ALTERNATIVES = [
  'tnsvendor:BodyWorn/Button/Press | tns1:Device/tnsvendor:Light/Status',
  'tns1:Device/tnsvendor:Network/Lost',
  'tns1:Device/tnsvendor:Status//. | tnsvendor:BodyWorn/Holster/State',
  'tns1:RuleEngine/MotionRegionDetector/Motion | tnsvendor:BodyWorn/Button//.',
  'tns1:VideoSource/MotionAlarm',
];
/** More content filters, for clients that select by content alone. */
const MORE_CONTENT = [
  [
    "boolean(//SimpleItem[@Name='active' and @Value='1'])",
    "boolean(//SimpleItem[@Name='RuleName' and @Value='Door'])",
    "boolean(//SimpleItem[@Name='button' and @Value='record'])",
  ],
  [
    "boolean(//SimpleItem[@Name='drawn' and @Value='1'])",
    "boolean(//SimpleItem[@Name='disruption' and @Value='1']) or boolean(//SimpleItem[@Name='lost' and @Value='1'])",
    "boolean(//SimpleItem[@Name='tampering' and @Value='1'])",
    "boolean(//SimpleItem[@Name='charging' and @Value='1'])",
  ],
];

/**
 * The kinds of filter sets a client configures, each 3 filters of 60 distinct sets:
 * - `mix`: a concrete path, a `//.` subtree alternative, a content filter (4 x 3 x 5);
 * - `topic`: three topic filters (concrete paths, subtrees, alternatives; 4 x 3 x 5);
 * - `content`: three content filters and no topic filter (5 x 3 x 4), which may match any topic.
 */
const FILTER_KINDS = ['mix', 'topic', 'content'];

/** The 3 filters of client `c` for a kind of {@link FILTER_KINDS}. */
function filtersFor(c, kind = 'mix') {
  switch (kind) {
    case 'mix':
      return [
        { topicFilter: CONCRETE[c % CONCRETE.length] },
        { topicFilter: SUBTREE[c % SUBTREE.length] },
        { contentFilter: CONTENT[c % CONTENT.length] },
      ];
    case 'topic':
      return [
        { topicFilter: CONCRETE[c % CONCRETE.length] },
        { topicFilter: SUBTREE[c % SUBTREE.length] },
        { topicFilter: ALTERNATIVES[c % ALTERNATIVES.length] },
      ];
    case 'content':
      return [
        { contentFilter: CONTENT[c % CONTENT.length] },
        { contentFilter: MORE_CONTENT[0][c % MORE_CONTENT[0].length] },
        { contentFilter: MORE_CONTENT[1][c % MORE_CONTENT[1].length] },
      ];
    default:
      throw new Error(`unknown filter kind "${kind}"; known: ${FILTER_KINDS.join(', ')}`);
  }
}

function configureRequest(c, kind = 'mix') {
  return {
    apiVersion: '1.0',
    context: `bench-${c}`,
    method: 'events:configure',
    params: { eventFilterList: filtersFor(c, kind) },
  };
}

module.exports = { TOPICS, FILTER_KINDS, makeEvents, filtersFor, configureRequest, DIST };
