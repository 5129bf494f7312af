"""The onboarding room (issue 25): a presenter's room that phones join by a short code, its store
(rooms, participants, answers in a SQL database through SQLAlchemy, schema by Alembic migrations),
room codes, and the room's results (answer counts, score per question, CSV). Pure Python: knows
nothing of pages, quiz files or the estimate; the page passes question ids and right answers in."""
