import { createSystem, defaultConfig, defineConfig } from '@chakra-ui/react';

// defaultConfig rather than defaultBaseConfig + picked recipes: the dialog, menu, toast, tabs and
// field slot recipes all need the full token set, and the heavy screens are lazy chunks anyway.
const workbench = defineConfig({
  theme: {
    tokens: {
      fonts: {
        body: {
          value:
            "system-ui, -apple-system, 'Segoe UI', 'PingFang SC', 'Hiragino Sans GB', " +
            "'Microsoft YaHei', 'Noto Sans CJK SC', 'WenQuanYi Zen Hei', sans-serif",
        },
        heading: {
          value:
            "system-ui, -apple-system, 'Segoe UI', 'PingFang SC', 'Hiragino Sans GB', " +
            "'Microsoft YaHei', 'Noto Sans CJK SC', 'WenQuanYi Zen Hei', sans-serif",
        },
      },
    },
    semanticTokens: {
      colors: {
        // The app canvas is a shade off the panels so cards and the side bar stand out in both modes.
        canvas: { value: { _light: '{colors.gray.50}', _dark: '{colors.gray.950}' } },
        panel: { value: { _light: 'white', _dark: '{colors.gray.900}' } },
      },
    },
  },
  globalCss: {
    'html, body, #root': { height: '100%' },
    body: { bg: 'canvas', color: 'fg' },
  },
});

export const system = createSystem(defaultConfig, workbench);
