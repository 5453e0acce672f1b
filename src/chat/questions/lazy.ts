/** The question chunk: everything the element loads when the agent first asks the user something. */
export { Questions } from './questions.js';
export { adoptStyles } from './styles.js';
