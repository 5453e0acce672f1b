import { defineConfig } from 'vite';
import vue from '@vitejs/plugin-vue';

export default defineConfig({
  plugins: [
    vue({
      // <pagent-chat> is a custom element, not a Vue component
      template: { compilerOptions: { isCustomElement: (tag) => tag === 'pagent-chat' } },
    }),
  ],
});
