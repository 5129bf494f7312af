"""Placeholder: being written."""
import streamlit as st

st.write("how_it_works")
