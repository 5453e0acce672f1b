/**
 * Renders a question of the agent: its message and, while it is asked, the form that answers it; once it
 * ended, the answer given (or that none was). The message, titles, descriptions and choices come from the
 * back end and are bound as text.
 */
import type { html as litHtml, nothing as litNothing, TemplateResult } from 'lit';
import type { QuestionItem, QuestionStatus } from '../timeline/items.js';
import { controlName, type Choice, type QuestionField, type QuestionForm } from './schema.js';
import type { QuestionStrings } from './strings.js';

/** Lit's template functions, handed over by the element (this chunk imports nothing of its bundle). */
export interface Lit {
  html: typeof litHtml;
  nothing: typeof litNothing;
}

/** What a question's controls do. */
export interface QuestionHandlers {
  submit(form: HTMLFormElement): void;
  dismiss(): void;
  /** The JSON field changed: its "not valid JSON" mark goes until the next submit. */
  edited(field: HTMLTextAreaElement): void;
}

const STATUS: Record<QuestionStatus, keyof QuestionStrings> = {
  asked: 'questionAsked',
  answered: 'questionAnswered',
  dismissed: 'questionDismissed',
  cancelled: 'questionCancelled',
};

/** The id prefix of a question's elements in the shadow root (row keys are unique there). */
export const questionId = (key: string): string => `pagent-${key}`;

const choiceText = (choice: Choice): string => (typeof choice === 'string' ? choice : JSON.stringify(choice));

function renderField(lit: Lit, field: QuestionField, index: number, id: string, s: QuestionStrings): TemplateResult {
  const { html, nothing } = lit;
  const name = controlName(index);
  const hintId = `${id}-h${index}`;
  const hint = field.description ? html`<span class="question-hint" id=${hintId}>${field.description}</span>` : nothing;
  const describedBy = field.description ? hintId : nothing;
  const label = field.label ?? (field.name === '' ? s.questionAnswer : field.name);
  const title = html`<span class="question-label">${label}${field.required && field.kind !== 'boolean' ? html`<span aria-hidden="true"> *</span>` : nothing}</span>`;
  switch (field.kind) {
    case 'boolean':
      return html`<div class="question-field question-check">
        <label><input type="checkbox" name=${name} ?checked=${field.initial} aria-describedby=${describedBy} />${title}</label>${hint}
      </div>`;
    case 'choice':
      return html`<div class="question-field">
        <label>${title}<select name=${name} ?required=${field.required} aria-describedby=${describedBy}>
          ${field.initial === undefined || !field.required ? html`<option value="" ?selected=${field.initial === undefined}></option>` : nothing}
          ${field.choices.map((choice, i) => html`<option value=${i} ?selected=${field.initial === i}>${choiceText(choice)}</option>`)}
        </select></label>${hint}
      </div>`;
    case 'number':
      return html`<div class="question-field">
        <label>${title}<input
          type="number"
          name=${name}
          step=${field.integer ? '1' : 'any'}
          min=${field.min ?? nothing}
          max=${field.max ?? nothing}
          value=${field.initial ?? nothing}
          ?required=${field.required}
          aria-describedby=${describedBy}
        /></label>${hint}
      </div>`;
    case 'text':
      return html`<div class="question-field">
        <label>${title}<input type="text" name=${name} value=${field.initial ?? nothing} ?required=${field.required} aria-describedby=${describedBy} /></label>${hint}
      </div>`;
  }
}

function renderForm(lit: Lit, item: QuestionItem, form: QuestionForm, s: QuestionStrings, on: QuestionHandlers): TemplateResult {
  const { html, nothing } = lit;
  const id = questionId(item.key);
  const fields =
    form.shape === 'json'
      ? html`<div class="question-field">
          <label><span class="question-label">${s.questionJson}</span><textarea name="json" required spellcheck="false" @input=${(e: Event) => on.edited(e.target as HTMLTextAreaElement)}></textarea></label>
        </div>`
      : form.shape === 'value'
        ? renderField(lit, form.field, 0, id, s)
        : form.fields.map((field, index) => renderField(lit, field, index, id, s));
  return html`<form
    part="question-form"
    class="question-form"
    aria-labelledby=${item.question.message ? `${id}-m` : nothing}
    aria-label=${item.question.message ? nothing : s.question}
    @submit=${(e: SubmitEvent) => {
      e.preventDefault();
      on.submit(e.currentTarget as HTMLFormElement);
    }}
  >
    ${fields}
    <div class="question-actions">
      <button part="question-submit" type="submit">${s.questionSubmit}</button>
      <button part="question-dismiss" type="button" class="secondary" @click=${() => on.dismiss()}>${s.questionDismiss}</button>
    </div>
  </form>`;
}

function answerText(value: unknown, field: QuestionField, s: QuestionStrings, locale: string): string {
  if (typeof value === 'boolean') return value ? s.questionYes : s.questionNo;
  if (typeof value === 'number' && field.kind === 'number') return value.toLocaleString(locale);
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** The answer given, as the form asked for it: each field's label and value, the one value, or the JSON. */
function renderAnswer(lit: Lit, answer: unknown, form: QuestionForm, s: QuestionStrings, locale: string): TemplateResult {
  const { html } = lit;
  if (form.shape === 'value') return html`<p part="question-answer" class="question-answer">${answerText(answer, form.field, s, locale)}</p>`;
  if (form.shape === 'json') return html`<pre part="question-answer" class="question-answer">${JSON.stringify(answer, null, 2)}</pre>`;
  const given = answer as Record<string, unknown>;
  const rows = form.fields.filter((field) => Object.hasOwn(given, field.name));
  return html`<dl part="question-answer" class="question-answer">
    ${rows.map((field) => html`<div><dt>${field.label ?? field.name}</dt><dd>${answerText(given[field.name], field, s, locale)}</dd></div>`)}
  </dl>`;
}

/** A question row: heading and status, the message, then the form (asked) or the answer (answered). */
export function renderQuestion(
  lit: Lit,
  item: QuestionItem,
  form: QuestionForm,
  s: QuestionStrings,
  locale: string,
  on: QuestionHandlers,
): TemplateResult {
  const { html, nothing } = lit;
  const id = questionId(item.key);
  const { message } = item.question;
  return html`<section
    part="question question-${item.status}"
    class="question"
    data-status=${item.status}
    id=${id}
    aria-labelledby=${`${id}-t ${message ? `${id}-m` : ''}`.trim()}
  >
    <header class="question-header">
      <span class="question-title" part="question-title" id=${`${id}-t`}>${s.question}</span>
      <span class="question-status" part="question-status">${s[STATUS[item.status]]}</span>
    </header>
    ${message ? html`<p class="question-message" part="question-message" id=${`${id}-m`}>${message}</p>` : nothing}
    ${item.status === 'asked'
      ? renderForm(lit, item, form, s, on)
      : item.status === 'answered'
        ? renderAnswer(lit, item.answer, form, s, locale)
        : nothing}
  </section>`;
}
