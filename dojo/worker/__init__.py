"""Room 3: the candidate's process and its boundary. The sandbox, the zygote and the workers it
forks, the wire between judge and worker, and the child processes ``dojo compare`` runs code in
(``isolate``). Imports only the rooms below (``dojo.text``, ``dojo.catalogue``)."""
