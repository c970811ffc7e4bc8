# Source this file: it puts Node.js 24 first on PATH, installing it from the npm registry into
# $HOME/.node24 when the machine's node is older (these machines ship Node 20).
medilearn_node_major=$(node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0)
if [ "$medilearn_node_major" -lt 24 ]; then
  if [ ! -x "$HOME/.node24/bin/node" ]; then
    echo "Installing Node.js 24 into $HOME/.node24 (the machine has Node $medilearn_node_major) ..." >&2
    npm install -g --prefix "$HOME/.node24" node@24 >/dev/null 2>&1 || npm install -g --prefix "$HOME/.node24" node@24
  fi
  export PATH="$HOME/.node24/bin:$PATH"
fi
unset medilearn_node_major
