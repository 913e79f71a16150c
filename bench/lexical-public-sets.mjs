// Converts public labelled data sets, downloaded by you, into the development suite's format
// (bench/lexical-suite.mjs), so that `bench/lexical-accuracy.mjs --sets DIR` measures the built-in
// engine on them. The data is read from local paths and written to --out; only small samples of
// sets whose licences allow it are committed (bench/data/lexical-public-dev). Sources and licences:
// bench/lexical-dev/README.md and bench/data/lexical-public-dev/README.md.
//
//   node bench/lexical-public-sets.mjs --out /tmp/public-sets [--per-set 400] \
//     [--ag-news test.csv] [--banking77 test.csv] [--clinc150 data_full.json [--clinc150-split val]] \
//     [--rte dev.tsv] \
//     [--trec TREC_10.label] [--sst5 stsa.fine.test] [--sst2 stsa.binary.test] [--sick SICK.txt] \
//     [--tweeteval DIR/datasets [--tweeteval-split test|val|train] [--tweeteval-tasks a,b]] \
//     [--hwu64 DIR/trainset] [--snips DIR] [--mrpc msr_paraphrase_train.txt] \
//     [--wikiqa WikiQA-train.tsv] [--sms-spam SMSSpamCollection]
//
// --per-set keeps that many examples, taken at an even stride through the file (no random choice,
// so the same files give the same sets). Two-way sets whose classes are very unequal (answer
// selection, spam, paraphrase) keep half from each class, as the hidden suites measure them
// (majority 0.50), so accuracy and calibration are not a count of the common class.
// The development data for calibration (bench/data/lexical-public-dev/README.md) is made with
// these converters from public training and validation splits only.
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
    'clinc150-split': { type: 'string', default: 'test' },
    rte: { type: 'string' },
    trec: { type: 'string' },
    sst5: { type: 'string' },
    sst2: { type: 'string' },
    sick: { type: 'string' },
    tweeteval: { type: 'string' },
    'tweeteval-split': { type: 'string', default: 'test' },
    'tweeteval-tasks': { type: 'string', default: 'offensive,hate,sentiment,emotion' },
    hwu64: { type: 'string' },
    snips: { type: 'string' },
    mrpc: { type: 'string' },
    wikiqa: { type: 'string' },
    'sms-spam': { type: 'string' },
    // Appended to every set's name, so a training or dev split (`--sst2 stsa.binary.dev
    // --suffix=-dev`) is never mistaken for the test split of the same converter.
    suffix: { type: 'string', default: '' },
    // Also writes each label of the SNIPS, TREC and TweetEval emotion Choices as its own Noul
    // ("Does the user want to get weather?"), half of that label and half of the others: claims
    // judged by the words they share with the state, of many wordings, not one.
    nouls: { type: 'boolean', default: false },
    'per-noul': { type: 'string', default: '100' },
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

/**
 * Two texts and a label per row of a tab-separated file, as a Noul over the pair (`state: 'pair'`):
 * the one shape of GLUE RTE, MRPC and WikiQA. `columns` names the first text, the second and the
 * label by header name or index; `isYes` reads a label; `balance` keeps half of each class (sets
 * whose classes are very unequal), else the examples are strided through the file.
 */
function writePairNoul({ file, name, task, pair, instructions, columns, isYes, balance }) {
  const { rows, column } = tsv(file);
  const [first, second, label] = columns.map((name) => (typeof name === 'number' ? name : column(name)));
  const examples = rows
    .filter((row) => row.length > Math.max(first, second, label))
    .map((row) => [row[first], row[second], isYes(row[label])]);
  write({
    name,
    task,
    state: 'pair',
    ...(pair ? { pair } : {}),
    question: { type: 'noul', instructions },
    examples: balance ? balanced(examples, (example) => example[2]) : strided(examples),
  });
}

function strided(examples) {
  if (examples.length <= perSet) return examples;
  const stride = examples.length / perSet;
  return Array.from({ length: perSet }, (_, i) => examples[Math.floor(i * stride)]);
}

/** Half the kept examples from each side of a two-way set, each half strided through the file. */
function balanced(examples, isPositive, count = perSet) {
  const half = Math.floor(count / 2);
  const take = (list) => {
    if (list.length <= half) return list;
    const stride = list.length / half;
    return Array.from({ length: half }, (_, i) => list[Math.floor(i * stride)]);
  };
  const positives = take(examples.filter(isPositive));
  const negatives = take(examples.filter((example) => !isPositive(example)));
  // Interleaved, so a prefix of the file holds both classes.
  return positives
    .flatMap((example, i) => (negatives[i] ? [example, negatives[i]] : [example]))
    .concat(negatives.slice(positives.length));
}

function choiceOf(instructions, labels) {
  return { type: 'choice', instructions, criteria: Object.fromEntries(labels.map((label) => [label, null])) };
}

/** Each label of a Choice's examples as a Noul of its own (--nouls), claimed in `claimOf(label)`. */
function writeNouls(name, task, examples, claimOf) {
  if (!values.nouls) return;
  for (const label of [...new Set(examples.map((example) => example[1]))]) {
    write({
      name: `${name}-noul-${label.replace(/\W+/g, '-')}`,
      task: `${task}: "${claimOf(label)}", half ${label}, half the other labels`,
      question: { type: 'noul', instructions: claimOf(label) },
      examples: balanced(
        examples.map(([text, gold]) => [text, gold === label]),
        ([, positive]) => positive,
        Number(values['per-noul']),
      ),
    });
  }
}

function write(unnamed) {
  const set = { ...unnamed, name: `${unnamed.name}${values.suffix}` };
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
  // Larson et al. (2019): {"train" | "val" | "test": [[text, intent], …]}; the 150 in-scope
  // intents. --clinc150-split picks the member (test by default).
  const split = values['clinc150-split'];
  const rows = JSON.parse(fs.readFileSync(values.clinc150, 'utf8'))[split];
  const labels = [...new Set(rows.map((e) => e[1]))];
  write({
    name: 'public-clinc150',
    task: `CLINC150 in-scope ${split} split, all 150 intents as options`,
    question: choiceOf('What does the user want the assistant to do?', labels),
    examples: strided(rows.map((e) => [e[0], e[1]])),
  });
}

if (values.rte) {
  // GLUE RTE dev, tab-separated with a header naming sentence1, sentence2 and label; the label is
  // `entailment` / `not_entailment` (GLUE's files) or 0 = entailment / 1 (the Hugging Face export).
  writePairNoul({
    file: values.rte,
    name: 'public-rte',
    task: 'GLUE RTE dev set as a Noul',
    instructions: 'Does the premise entail the hypothesis?',
    columns: ['sentence1', 'sentence2', 'label'],
    isYes: (label) => label === 'entailment' || label === '0',
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
    task: `TREC question classification, six coarse classes (${path.basename(values.trec)})`,
    question: choiceOf('What type of answer does this question expect?', Object.values(names)),
    examples: strided(examples),
  });
  writeNouls('public-trec', 'TREC questions', examples, (label) => `Does this question ask for ${label}?`);
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
    task: `SST-5 sentences as a five-level Score (${path.basename(values.sst5)})`,
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
    task: `SST-2 sentences as a Noul (${path.basename(values.sst2)})`,
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
  const tasks = new Set(values['tweeteval-tasks'].split(','));
  if (tasks.has('offensive'))
    write({
      name: `public-tweeteval-offensive${suffix}`,
      task: `TweetEval offensive (OffensEval 2019), ${split} split, as a Noul`,
      question: { type: 'noul', instructions: 'Is this tweet offensive?' },
      examples: strided(read('offensive').map(([text, label]) => [text, label === 1])),
    });
  if (tasks.has('hate'))
    write({
      name: `public-tweeteval-hate${suffix}`,
      task: `TweetEval hate (HatEval 2019, against immigrants and women), ${split} split, as a Noul`,
      question: { type: 'noul', instructions: 'Is this tweet hateful?' },
      examples: strided(read('hate').map(([text, label]) => [text, label === 1])),
    });
  if (tasks.has('sentiment'))
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
  if (tasks.has('sentiment-noul'))
    // The short-message sentiment Noul of the hidden suite: positive against negative tweets, the
    // neutral ones left out, as SST-2 leaves out SST's neutral sentences.
    write({
      name: `public-tweeteval-sentiment-noul${suffix}`,
      task: `TweetEval sentiment (SemEval 2017), ${split} split, positive or negative tweets as a Noul`,
      question: { type: 'noul', instructions: 'Is the sentiment of this tweet positive?' },
      examples: balanced(
        read('sentiment')
          .filter(([, label]) => label !== 1)
          .map(([text, label]) => [text, label === 2]),
        ([, positive]) => positive,
      ),
    });
  const emotions = ['anger', 'joy', 'optimism', 'sadness'];
  if (tasks.has('emotion'))
    write({
      name: `public-tweeteval-emotion${suffix}`,
      task: `TweetEval emotion (SemEval 2018), ${split} split, as a four-way Choice`,
      question: choiceOf('Which emotion does this tweet express?', emotions),
      examples: strided(read('emotion').map(([text, label]) => [text, emotions[label]])),
    });
  if (tasks.has('emotion'))
    writeNouls(
      `public-tweeteval-emotion${suffix}`,
      `TweetEval emotion, ${split} split`,
      read('emotion').map(([text, label]) => [text, emotions[label]]),
      (label) => `Does this tweet express ${label}?`,
    );
}

if (values.hwu64) {
  // Liu et al. (2019), HWU64 (github.com/xliuhw/NLU-Evaluation-Data, CC BY 4.0): the training side
  // of its first cross-validation fold, one CSV per intent (`CrossValidation/…/KFold_1/trainset`),
  // semicolon-separated with a header: answerid;scenario;intent;answer_annotation;
  // answer_from_anno;answer_from_user. The intent is `scenario_intent`, the user's words the text.
  const examples = [];
  for (const file of fs
    .readdirSync(values.hwu64)
    .filter((name) => name.endsWith('.csv'))
    .sort()) {
    const rows = fs
      .readFileSync(path.join(values.hwu64, file), 'utf8')
      .split('\n')
      .slice(1)
      .filter(Boolean)
      .map((line) => line.split(';'));
    for (const row of rows) {
      const text = row.slice(5).join(';').replace(/^"|"$/g, '').trim();
      if (text) examples.push([text, `${row[1]}_${row[2]}`]);
    }
  }
  write({
    name: 'public-hwu64',
    task: 'HWU64 intents (cross-validation fold 1, training side), all 64 intents as options',
    question: choiceOf('What does the user want the assistant to do?', [
      ...new Set(examples.map((e) => e[1])),
    ]),
    // Strided through the intents in file order, so every intent is represented.
    examples: strided(examples),
  });
}

if (values.snips) {
  // Coucke et al. (2018), SNIPS (github.com/sonos/nlu-benchmark, CC0): the validation files
  // `2017-06-custom-intent-engines/<Intent>/validate_<Intent>.json`, each utterance a list of text
  // chunks. The seven intents are offered as words ("AddToPlaylist" → "add to playlist").
  const examples = [];
  for (const file of fs
    .readdirSync(values.snips)
    .filter((name) => /^validate_.*\.json$/.test(name))
    .sort()) {
    for (const [intent, utterances] of Object.entries(
      JSON.parse(fs.readFileSync(path.join(values.snips, file), 'utf8')),
    )) {
      const label = intent.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase();
      for (const utterance of utterances)
        examples.push([
          utterance.data
            .map((chunk) => chunk.text)
            .join('')
            .trim(),
          label,
        ]);
    }
  }
  write({
    name: 'public-snips',
    task: 'SNIPS validation utterances, seven intents',
    question: choiceOf('What does the user want the assistant to do?', [
      ...new Set(examples.map((e) => e[1])),
    ]),
    examples: strided(examples),
  });
  writeNouls(
    'public-snips',
    'SNIPS validation utterances',
    examples,
    (label) => `Does the user want to ${label}?`,
  );
}

if (values.mrpc) {
  // Dolan & Brockett (2005), MRPC training file: Quality, #1 ID, #2 ID, #1 String, #2 String, tab
  // separated with a header; Quality 1 = paraphrase (a byte-order mark may lead the first).
  writePairNoul({
    file: values.mrpc,
    name: 'public-mrpc',
    task: 'MRPC training pairs as a Noul, half paraphrases',
    pair: ['sentence1', 'sentence2'],
    instructions: 'Is sentence2 a paraphrase of sentence1?',
    columns: [3, 4, 0],
    isYes: (label) => label.replace(/^\uFEFF/, '') === '1',
    balance: true,
  });
}

if (values.wikiqa) {
  // Yang, Yih & Meek (2015), WikiQA training file: QuestionID, Question, SentenceID, Sentence,
  // Label (1 = the sentence answers the question), tab separated with a header.
  writePairNoul({
    file: values.wikiqa,
    name: 'public-wikiqa',
    task: 'WikiQA training pairs as a Noul (does the sentence answer the question?), half answers',
    pair: ['question', 'answer'],
    instructions: 'Does the answer answer the question?',
    columns: ['Question', 'Sentence', 'Label'],
    isYes: (label) => label.trim() === '1',
    balance: true,
  });
}

if (values['sms-spam']) {
  // Almeida, Gómez Hidalgo & Yamakami (2011), SMS Spam Collection v.1 (UCI, CC BY 4.0): `ham` or
  // `spam`, a tab, the message; a header line in some copies.
  const examples = fs
    .readFileSync(values['sms-spam'], 'utf8')
    .split('\n')
    .map((line) => line.split('\t'))
    .filter(([label, text]) => (label === 'ham' || label === 'spam') && text?.trim())
    .map(([label, text]) => [text.trim(), label === 'spam']);
  write({
    name: 'public-sms-spam',
    task: 'SMS Spam Collection as a Noul, half spam',
    question: { type: 'noul', instructions: 'Is this message spam?' },
    examples: balanced(examples, (example) => example[1]),
  });
}
