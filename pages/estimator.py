"""Placeholder: being written."""
import streamlit as st

st.write("estimator")
