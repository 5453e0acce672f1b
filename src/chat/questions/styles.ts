/** The question rows' styles: adopted by the shadow root when the question chunk loads. */
import { createStyleAdopter } from '../adopt-styles.js';

const styles = `
  .question {
    border: 1px solid var(--_accent); border-radius: var(--_radius); background: var(--_surface);
    padding: 8px 10px; font-size: 0.92em;
  }
  .question:not([data-status='asked']) { border-color: var(--_border); }
  .question-header { display: flex; align-items: baseline; gap: 8px; flex-wrap: wrap; }
  .question-title { font-weight: 600; }
  .question-status {
    font-size: 0.85em; padding: 0 6px; border-radius: 999px; border: 1px solid currentColor; color: var(--_muted);
  }
  .question[data-status='asked'] .question-status { color: var(--_accent); }
  .question[data-status='answered'] .question-status { color: var(--_ok); }
  .question-message { margin: 6px 0 0; white-space: pre-wrap; overflow-wrap: anywhere; }
  .question-form { display: grid; gap: 10px; margin-top: 10px; }
  .question-field { display: grid; gap: 2px; min-width: 0; }
  .question-field > label { display: grid; gap: 4px; }
  .question-label { font-size: 0.9em; color: var(--_muted); overflow-wrap: anywhere; }
  .question-hint { font-size: 0.85em; color: var(--_muted); }
  .question-field input:not([type='checkbox']), .question-field select, .question-field textarea {
    width: 100%; min-width: 0; max-width: 28em; font: inherit; color: inherit; background: var(--_bg);
    border: 1px solid var(--_border); border-radius: 8px; padding: 5px 8px;
  }
  .question-field textarea { max-width: none; min-height: 5em; font-family: var(--_mono); font-size: 0.9em; }
  .question-check > label { display: flex; align-items: center; gap: 8px; }
  .question-check .question-label { color: inherit; font-size: 1em; }
  .question-check input { width: 1.1em; height: 1.1em; margin: 0; accent-color: var(--_accent); }
  .question-field :user-invalid { border-color: var(--_danger); }
  .question-actions { display: flex; flex-wrap: wrap; gap: 8px; }
  .question-answer { margin: 6px 0 0; }
  dl.question-answer { display: grid; gap: 2px; }
  dl.question-answer > div { display: flex; gap: 8px; flex-wrap: wrap; }
  dl.question-answer dt { color: var(--_muted); }
  dl.question-answer dt::after { content: ':'; }
  dl.question-answer dd { margin: 0; overflow-wrap: anywhere; }
  pre.question-answer {
    font-family: var(--_mono); font-size: 0.9em; white-space: pre-wrap; overflow-wrap: anywhere;
    background: var(--_bg); border-radius: 6px; padding: 6px 8px;
  }
`;

/** Adds the question styles to the element's shadow root (once). */
export const adoptStyles = createStyleAdopter(styles);
