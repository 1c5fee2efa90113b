import { createSystem, defaultBaseConfig, defineConfig } from '@chakra-ui/react';
import {
  alertSlotRecipe,
  animationStyles,
  avatarSlotRecipe,
  badgeRecipe,
  breakpoints,
  buttonRecipe,
  checkboxSlotRecipe,
  checkmarkRecipe,
  codeRecipe,
  containerRecipe,
  cssVarsPrefix,
  cssVarsRoot,
  dataListSlotRecipe,
  dialogSlotRecipe,
  drawerSlotRecipe,
  emptyStateSlotRecipe,
  fieldSlotRecipe,
  globalCss,
  headingRecipe,
  iconRecipe,
  inputAddonRecipe,
  inputRecipe,
  kbdRecipe,
  keyframes,
  layerStyles,
  linkRecipe,
  listSlotRecipe,
  menuSlotRecipe,
  nativeSelectSlotRecipe,
  popoverSlotRecipe,
  progressSlotRecipe,
  qrCodeSlotRecipe,
  semanticTokens,
  skeletonRecipe,
  spinnerRecipe,
  tableSlotRecipe,
  tabsSlotRecipe,
  textareaRecipe,
  textStyles,
  toastSlotRecipe,
  tokens,
} from '@chakra-ui/react/theme';

// The default theme's tokens with only the recipes of the components the workbench uses (Chakra's bundle guide): the
// default set of about 80 recipes was the largest part of the first load. A component whose recipe is missing here
// has no styles, so tests/dom/system.test.ts checks every Chakra component the views import against these lists.
export const recipes = {
  badge: badgeRecipe,
  button: buttonRecipe,
  checkmark: checkmarkRecipe,
  code: codeRecipe,
  container: containerRecipe,
  heading: headingRecipe,
  icon: iconRecipe,
  input: inputRecipe,
  inputAddon: inputAddonRecipe,
  kbd: kbdRecipe,
  link: linkRecipe,
  skeleton: skeletonRecipe,
  spinner: spinnerRecipe,
  textarea: textareaRecipe,
};
export const slotRecipes = {
  alert: alertSlotRecipe,
  avatar: avatarSlotRecipe,
  checkbox: checkboxSlotRecipe,
  dataList: dataListSlotRecipe,
  dialog: dialogSlotRecipe,
  drawer: drawerSlotRecipe,
  emptyState: emptyStateSlotRecipe,
  field: fieldSlotRecipe,
  list: listSlotRecipe,
  menu: menuSlotRecipe,
  nativeSelect: nativeSelectSlotRecipe,
  popover: popoverSlotRecipe,
  progress: progressSlotRecipe,
  qrCode: qrCodeSlotRecipe,
  table: tableSlotRecipe,
  tabs: tabsSlotRecipe,
  toast: toastSlotRecipe,
};

const theme = defineConfig({
  preflight: true,
  cssVarsPrefix,
  cssVarsRoot,
  globalCss,
  theme: {
    breakpoints,
    keyframes,
    tokens,
    semanticTokens,
    recipes,
    slotRecipes,
    textStyles,
    layerStyles,
    animationStyles,
  },
});
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
        // Chakra's defaults for these fall below WCAG AA's 4.5:1 on the panels (axe color-contrast): one shade darker
        // in light mode, one lighter in dark mode.
        fg: {
          subtle: { value: { _light: '{colors.gray.500}', _dark: '{colors.gray.400}' } },
          error: { value: { _light: '{colors.red.600}', _dark: '{colors.red.400}' } },
          warning: { value: { _light: '{colors.orange.700}', _dark: '{colors.orange.300}' } },
          success: { value: { _light: '{colors.green.700}', _dark: '{colors.green.300}' } },
        },
        // white on green.600 or orange.600 is 3.3:1 and 3.6:1
        green: { solid: { value: { _light: '{colors.green.700}', _dark: '{colors.green.700}' } } },
        orange: { solid: { value: { _light: '{colors.orange.700}', _dark: '{colors.orange.500}' } } },
      },
    },
    slotRecipes: {
      // tabs stay on one line and scroll sideways on a narrow screen, instead of each label breaking into a column
      tabs: {
        slots: tabsSlotRecipe.slots,
        base: {
          list: { overflowX: 'auto', overflowY: 'hidden', flexWrap: 'nowrap', maxW: 'full', scrollbarWidth: 'thin' },
          trigger: { flexShrink: 0, whiteSpace: 'nowrap' },
        },
      },
      // a column's name is never broken into a column of single characters when a narrow table squeezes it
      table: { slots: tableSlotRecipe.slots, base: { columnHeader: { whiteSpace: 'nowrap' } } },
    },
  },
  globalCss: {
    'html, body, #root': { height: '100%' },
    body: { bg: 'canvas', color: 'fg' },
  },
});

export const system = createSystem(defaultBaseConfig, theme, workbench);
