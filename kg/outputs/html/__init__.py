"""The interactive HTML graph page: ``selection`` (what to show) -> ``layout`` (positions) ->
``page_data`` (the JSON the script reads) -> ``template`` (the page) -> ``page`` (from a built
store to a file or a Jupyter frame)."""

#: The page draws at most this many nodes, the strongest (see
#: :func:`kg.outputs.html.selection.select_graph`), and says what it left out. Headless chromium drew
#: the 15,237 nodes of 1,000 CVs (a page of 23 MB) in 5 s. All 143,925 nodes of 10,000 CVs made a page
#: of 223 MB, which ``kg html`` took 63 s and 2.9 GB to write; 20,000 of them, 68 MB in 16 s. The
#: build's page keeps as many, and so does ``kg html`` unless ``--max-nodes N`` asks for another
#: number; ``--focus NAME`` draws any other part.
PAGE_MAX_NODES = 20_000
#: What a page cut to its strongest nodes adds to its note (the build's report, ``kg html``).
DRAW_MORE = "`kg html --max-nodes N` or `kg html --focus NAME` draws more."
