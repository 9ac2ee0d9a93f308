"""The rule catalogue: one module per rule (see launchlint.rulekit).

`CATALOGUE` names every rule's code, its module, and the facts it reads: a rule finds nothing in a
project whose files give none of those facts, so its module is not even imported there (a
shell-only project never loads the thread analysis). `shell` facts come from shell scripts and the
shell inside YAML, Makefiles, justfiles and Markdown; `python` facts from Python files. tests/test_rules.py
checks the catalogue against the modules and against every rule's examples.
"""

SHELL, PYTHON = "shell", "python"

CATALOGUE = (
    ("LL001", "ll001_parse_error", ()),
    ("LL002", "ll002_unused_suppression", ()),
    ("LL003", "ll003_internal_error", ()),
    ("LL101", "ll101_log_path_drift", (SHELL,)),
    ("LL102", "ll102_exec_redirect_starves_pipe", (SHELL,)),
    ("LL103", "ll103_command_redirect_starves_pipe", (SHELL,)),
    ("LL104", "ll104_redirect_order", (SHELL,)),
    ("LL105", "ll105_pipeline_masks_failure", (SHELL,)),
    ("LL106", "ll106_python_output_buffered", (SHELL,)),
    ("LL107", "ll107_detached_output_lost", (SHELL,)),
    ("LL108", "ll108_remote_relative_path", (SHELL,)),
    ("LL109", "ll109_sbatch_log_dir_missing", (SHELL,)),
    ("LL201", "ll201_compile_in_thread", (PYTHON,)),
    ("LL202", "ll202_compiled_call_in_thread", (PYTHON,)),
    ("LL203", "ll203_cuda_graph_in_thread", (PYTHON,)),
    ("LL204", "ll204_stdout_hijack", (PYTHON,)),
    ("LL205", "ll205_compile_config_not_inherited", (PYTHON,)),
    ("LL301", "ll301_unknown_cli_flag", (SHELL, PYTHON)),  # a launch's flags against a trainer's parser
    ("LL302", "ll302_missing_required_flag", (SHELL, PYTHON)),
    ("LL303", "ll303_missing_script", (SHELL,)),
    ("LL304", "ll304_missing_config_file", (SHELL,)),
    ("LL401", "ll401_gpu_count_mismatch", (SHELL,)),
    ("LL402", "ll402_master_port_collision", (SHELL,)),
)


def codes() -> list[str]:
    """Every rule's code, without importing a rule (the command line checks --select with it)."""
    return [code for code, _, _ in CATALOGUE]
