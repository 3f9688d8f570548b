console.log('confbus: not built yet');
