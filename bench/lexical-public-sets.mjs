// Converts public labelled data sets, downloaded by you, into the development suite's format
// (bench/lexical-suite.mjs), so that `bench/lexical-accuracy.mjs --sets DIR` measures the built-in
// engine on them. The data is read from local paths and written to --out; none of it is committed.
// Sources and licences: bench/lexical-dev/README.md.
//
//   node bench/lexical-public-sets.mjs --out /tmp/public-sets [--per-set 400] \
//     [--ag-news test.csv] [--banking77 test.csv] [--clinc150 data_full.json] [--rte dev.tsv] \
//     [--trec TREC_10.label] [--sst5 stsa.fine.test] [--sst2 stsa.binary.test] [--sick SICK.txt] \
//     [--tweeteval DIR/datasets [--tweeteval-split test|val|train]]
//
// --per-set keeps that many examples, taken at an even stride through the file (no random choice,
// so the same files give the same sets).
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';

const { values } = parseArgs({
  options: {
    out: { type: 'string' },
    'per-set': { type: 'string', default: '400' },
    'ag-news': { type: 'string' },
    banking77: { type: 'string' },
    clinc150: { type: 'string' },
    rte: { type: 'string' },
    trec: { type: 'string' },
    sst5: { type: 'string' },
    sst2: { type: 'string' },
    sick: { type: 'string' },
    tweeteval: { type: 'string' },
    'tweeteval-split': { type: 'string', default: 'test' },
  },
});
if (!values.out) throw new Error('--out DIR is required');
const perSet = Number(values['per-set']);

/** RFC 4180 CSV rows (quoted fields, doubled quotes, commas and newlines inside quotes). */
function csvRows(text) {
  const rows = [];
  let row = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      row.push(field);
      field = '';
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') i++;
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
    } else field += c;
  }
  if (field || row.length) rows.push([...row, field]);
  return rows.filter((r) => r.length > 1 || r[0]);
}

/** A tab-separated file with a header line: its rows, and a column's index by its name. */
function tsv(file) {
  const [header, ...rows] = fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => line.split('\t'));
  return { rows, column: (name) => header.indexOf(name) };
}

function strided(examples) {
  if (examples.length <= perSet) return examples;
  const stride = examples.length / perSet;
  return Array.from({ length: perSet }, (_, i) => examples[Math.floor(i * stride)]);
}

function choiceOf(instructions, labels) {
  return { type: 'choice', instructions, criteria: Object.fromEntries(labels.map((label) => [label, null])) };
}

function write(set) {
  fs.mkdirSync(values.out, { recursive: true });
  fs.writeFileSync(path.join(values.out, `${set.name}.json`), JSON.stringify(set));
  console.log(`${set.name}: ${set.examples.length} examples`);
}

if (values['ag-news']) {
  // Zhang, Zhao & LeCun (2015): class index (1-4), title, description; no header in the original.
  const names = ['World', 'Sports', 'Business', 'Science and Technology'];
  const rows = csvRows(fs.readFileSync(values['ag-news'], 'utf8')).filter((r) => /^[1-4]$/.test(r[0]));
  const examples = rows.map((r) => [`${r[1]}. ${r[2]}`.replace(/\\/g, ' '), names[Number(r[0]) - 1]]);
  write({
    name: 'public-ag-news',
    task: 'AG News test set',
    question: choiceOf('What is the topic of this news article?', names),
    examples: strided(examples),
  });
}

if (values.banking77) {
  // Casanueva et al. (2020), PolyAI: text,category with a header.
  const rows = csvRows(fs.readFileSync(values.banking77, 'utf8')).slice(1);
  const labels = [...new Set(rows.map((r) => r[1]))];
  write({
    name: 'public-banking77',
    task: 'BANKING77 test set, all 77 intents as options',
    question: choiceOf('Which intent does this customer message express?', labels),
    examples: strided(rows.map((r) => [r[0], r[1]])),
  });
}

if (values.clinc150) {
  // Larson et al. (2019): {"test": [[text, intent], …]}; the 150 in-scope intents.
  const test = JSON.parse(fs.readFileSync(values.clinc150, 'utf8')).test;
  const labels = [...new Set(test.map((e) => e[1]))];
  write({
    name: 'public-clinc150',
    task: 'CLINC150 in-scope test set, all 150 intents as options',
    question: choiceOf('What does the user want the assistant to do?', labels),
    examples: strided(test.map((e) => [e[0], e[1]])),
  });
}

if (values.rte) {
  // GLUE RTE dev, tab-separated with a header naming sentence1, sentence2 and label; the label is
  // `entailment` / `not_entailment` (GLUE's files) or 0 = entailment / 1 (the Hugging Face export).
  const { rows, column } = tsv(values.rte);
  const [premise, hypothesis, label] = [column('sentence1'), column('sentence2'), column('label')];
  write({
    name: 'public-rte',
    task: 'GLUE RTE dev set as a Noul',
    state: 'pair',
    question: { type: 'noul', instructions: 'Does the premise entail the hypothesis?' },
    examples: strided(
      rows.map((r) => [r[premise], r[hypothesis], r[label] === 'entailment' || r[label] === '0']),
    ),
  });
}

if (values.trec) {
  // Li & Roth (2002): `COARSE:fine question` per line (the original TREC_10.label file). The six
  // coarse classes are offered under the names the data set's own documentation gives them.
  const names = {
    ABBR: 'abbreviation',
    DESC: 'description and abstract concept',
    ENTY: 'entity',
    HUM: 'human being',
    LOC: 'location',
    NUM: 'numeric value',
  };
  const examples = fs
    .readFileSync(values.trec, 'latin1')
    .split('\n')
    .filter(Boolean)
    .map((line) => {
      const [, coarse, text] = /^([A-Z]+):\S+ (.*)$/.exec(line);
      return [text, names[coarse]];
    });
  write({
    name: 'public-trec',
    task: 'TREC question classification test set, six coarse classes',
    question: choiceOf('What type of answer does this question expect?', Object.values(names)),
    examples: strided(examples),
  });
}

/** `label sentence` per line: the Stanford Sentiment Treebank sentences as harvardnlp ships them. */
function sstLines(file) {
  return fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => [line.slice(2), Number(line[0])]);
}

if (values.sst5) {
  // Socher et al. (2013), SST-5: 0 very negative … 4 very positive.
  write({
    name: 'public-sst5',
    task: 'SST-5 test sentences as a five-level Score',
    question: {
      type: 'score',
      instructions: 'How positive is the sentiment of this movie review?',
      criteria: ['very negative', 'negative', 'neutral', 'positive', 'very positive'],
    },
    examples: strided(sstLines(values.sst5)),
  });
}

if (values.sst2) {
  // SST-2: SST without its neutral sentences, 0 negative / 1 positive.
  write({
    name: 'public-sst2',
    task: 'SST-2 test sentences as a Noul',
    question: { type: 'noul', instructions: 'Is the sentiment of this movie review positive?' },
    examples: strided(sstLines(values.sst2).map(([text, label]) => [text, label === 1])),
  });
}

if (values.sick) {
  // Marelli et al. (2014), SICK: tab-separated with a header naming sentence_A, sentence_B and
  // entailment_judgment (ENTAILMENT / NEUTRAL / CONTRADICTION).
  const { rows, column } = tsv(values.sick);
  const [premise, hypothesis, label] = [
    column('sentence_A'),
    column('sentence_B'),
    column('entailment_judgment'),
  ];
  write({
    name: 'public-sick',
    task: 'SICK sentence pairs: entailment, neutral or contradiction',
    state: 'pair',
    question: choiceOf('What is the relation of the hypothesis to the premise?', [
      'entailment',
      'neutral',
      'contradiction',
    ]),
    examples: strided(rows.map((r) => [r[premise], r[hypothesis], r[label].toLowerCase()])),
  });
}

if (values.tweeteval) {
  // Barbieri et al. (2020), TweetEval: datasets/<task>/<split>_text.txt and <split>_labels.txt, one
  // tweet and one label index a line; mapping.txt names the indices. Offensive (OffensEval 2019) and
  // hate (HatEval 2019) are Nouls, sentiment a three-level Score, emotion a four-way Choice.
  const split = values['tweeteval-split'];
  const read = (task) => {
    const lines = (file) => fs.readFileSync(path.join(values.tweeteval, task, file), 'utf8').split('\n');
    const texts = lines(`${split}_text.txt`);
    return lines(`${split}_labels.txt`)
      .map((label, i) => [texts[i]?.trim() ?? '', Number(label)])
      .filter(([text, label]) => text !== '' && Number.isInteger(label));
  };
  const suffix = split === 'test' ? '' : `-${split}`;
  write({
    name: `public-tweeteval-offensive${suffix}`,
    task: `TweetEval offensive (OffensEval 2019), ${split} split, as a Noul`,
    question: { type: 'noul', instructions: 'Is this tweet offensive?' },
    examples: strided(read('offensive').map(([text, label]) => [text, label === 1])),
  });
  write({
    name: `public-tweeteval-hate${suffix}`,
    task: `TweetEval hate (HatEval 2019, against immigrants and women), ${split} split, as a Noul`,
    question: { type: 'noul', instructions: 'Is this tweet hateful?' },
    examples: strided(read('hate').map(([text, label]) => [text, label === 1])),
  });
  write({
    name: `public-tweeteval-sentiment${suffix}`,
    task: `TweetEval sentiment (SemEval 2017), ${split} split, as a three-level Score`,
    question: {
      type: 'score',
      instructions: 'How positive is the sentiment of this tweet?',
      criteria: ['negative', 'neutral', 'positive'],
    },
    examples: strided(read('sentiment')),
  });
  const emotions = ['anger', 'joy', 'optimism', 'sadness'];
  write({
    name: `public-tweeteval-emotion${suffix}`,
    task: `TweetEval emotion (SemEval 2018), ${split} split, as a four-way Choice`,
    question: choiceOf('Which emotion does this tweet express?', emotions),
    examples: strided(read('emotion').map(([text, label]) => [text, emotions[label]])),
  });
}
