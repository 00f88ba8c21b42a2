"""Tests of generate.py's pure functions: python3 -m unittest discover -s eval/aci-bench"""
import unittest

import generate


class AgeTest(unittest.TestCase):
    def test_an_integral_float_age_is_written_as_a_whole_number(self):
        self.assertEqual(generate.age("29.0"), "29")

    def test_other_ages_are_kept(self):
        self.assertEqual(generate.age(" 62 "), "62")
        self.assertEqual(generate.age("7.5"), "7.5")


class VisitSummaryTest(unittest.TestCase):
    def test_the_summary_names_age_gender_complaint_and_history(self):
        meta = {"patient_age": "29.0", "patient_gender": "female", "cc": "back pain ",
                "2nd_complaints": "hypertension;diabetes type 2"}
        self.assertEqual(generate.visit_summary(meta),
                         "29-year-old female with back pain; history of hypertension and diabetes type 2")


if __name__ == "__main__":
    unittest.main()
