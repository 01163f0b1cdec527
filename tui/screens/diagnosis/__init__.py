"""The Diagnosis area: rates, failure groups, clusters, the judge's doubtful verdicts, the
calls behind a number, and exporting training-data suggestions.
"""
