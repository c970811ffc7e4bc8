/**
 * The page on the content origin that hosts a SCO (issue 35): it gives the SCO the SCORM API it looks
 * for in its parent (`API` for 1.2, `API_1484_11` for 2004), scorm-again's CrossFrameAPI, which asks
 * the player on the platform's origin by postMessage, and loads the SCO beneath it once the API holds
 * the participant's saved state (suspend data, location), so a SCO that reads it right after
 * initialising finds it. Values are JSON-encoded into the script; the SCO's path is the manifest's.
 */
export const scormFrameHtml = (options: { platformOrigin: string; standard: 'scorm12' | 'scorm2004'; launch: string }) => {
  const json = (value: unknown) => JSON.stringify(value).replace(/</g, '\\u003c');
  const name = options.standard === 'scorm12' ? 'API' : 'API_1484_11';
  return `<!doctype html>
<html lang="sl">
<head>
<meta charset="utf-8">
<title>Paket SCORM</title>
<style>html,body{margin:0;height:100%;overflow:hidden}iframe{border:0;width:100%;height:100%;display:block}</style>
<script src="cross-frame-api.js"></script>
</head>
<body>
<iframe id="sco" title="Vsebina paketa"></iframe>
<script>
(function () {
  var platform = ${json(options.platformOrigin)};
  var api = new CrossFrameAPI(platform, window.parent, { timeout: 15000 });
  window[${json(name)}] = api;
  var frame = document.getElementById('sco');
  var start = function () { frame.src = '../' + ${json(options.launch)}; };
  // The saved state first (scorm-again's cache warming), so a resumed SCO finds it at once.
  var warm = api._post('getFlattenedCMI', []).then(function (all) {
    if (all && typeof all === 'object') Object.keys(all).forEach(function (key) { api._cache.set(key, String(all[key])); });
  });
  Promise.race([warm, new Promise(function (resolve) { setTimeout(resolve, 5000); })]).then(start, start);
})();
</script>
</body>
</html>
`;
};
