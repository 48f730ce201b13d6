"""What people see: terminal views, transcripts, the progress bar, charts and HTML."""
