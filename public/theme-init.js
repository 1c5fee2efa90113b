// Applies the stored theme before the first paint (the theme machine takes over once loaded). A file of its own
// rather than an inline script, so the Content-Security-Policy can forbid inline scripts altogether.
try {
  var dark = localStorage.getItem('theme') === 'dark';
  document.documentElement.classList.add(dark ? 'dark' : 'light');
  document.documentElement.style.colorScheme = dark ? 'dark' : 'light';
} catch (e) {
  // no storage (a private window): the light theme of the stylesheet stays
}
