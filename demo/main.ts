// The demo app (see index.html).
