"""The results database: tables, migrations and the store that reads and writes runs."""
