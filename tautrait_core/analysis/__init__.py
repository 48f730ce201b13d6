"""What runs mean: intervals, trait drop, rescoring, diagnoses, summaries."""
