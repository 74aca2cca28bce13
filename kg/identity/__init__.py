"""Identity: which mentions in the documents name the same person, work, venue or organization.

``keys`` (normal forms and slugs) -> ``curation`` (the user's file) -> ``people``, ``venues``,
``organizations``, ``works`` (one resolver each, filling a ``resolution.Resolution``) ->
``resolve.resolve`` (runs them in order). ``decisions`` holds the reasons kept for ``kg explain``.
"""
