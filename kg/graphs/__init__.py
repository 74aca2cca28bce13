"""Graphs: ``projections`` reads networkx graphs from the store (co-authors, people and
organizations, supervision); ``analyses`` gathers the questions asked of them, each module
answering one kind (``collaborators``, ``structure``, ``timeline``, ``institutions``) with
pandas DataFrames; ``edgelist`` reads plain edge lists such as SNAP's."""
