/**
 * English function words that carry no evidence about which option fits. Kept short on purpose:
 * negations ("not", "no", "never") are left out of evidence too, because a bag of words cannot
 * tell which claim they negate.
 */
export const STOP_WORDS: ReadonlySet<string> = new Set(
  (
    'a about above after again against all am an and any are as at be because been before being below ' +
    'between both but by can could did do does doing done down during each either else ever every few for ' +
    'from further had has have having he her here hers him his how i if in into is it its itself just let ' +
    'may me might more most must my neither never no nor not now of off on once only or other our ours out ' +
    'over own same shall she should so some such than that the their theirs them then there these they this ' +
    'those through to too under until up upon us very was we were what when where which while who whom whose ' +
    'why will with within without would yes yet you your yours'
  ).split(' '),
);
