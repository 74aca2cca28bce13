"""kg on a SPARQL 1.1 server: the store as an endpoint URL (:mod:`kg.remote.store`), the push of a build
(:mod:`kg.remote.push`), the layout on the server (:mod:`kg.remote.layout`), HTTP (:mod:`kg.remote.http`)."""
