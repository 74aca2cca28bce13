"""The interactive HTML graph page: ``selection`` (what to show) -> ``layout`` (positions) ->
``page_data`` (the JSON the script reads) -> ``template`` (the page) -> ``page`` (from a built
store to a file or a Jupyter frame)."""
