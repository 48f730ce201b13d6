"""What runs mean: pass^k and intervals, trait drop, rescoring, diagnoses, summaries."""
